#include <gperftools/tcmalloc.h>
#include <stdlib.h>

/* Names tcmalloc itself, as a program using its extensions does: the linker keeps it
   whatever its place on the line. */
int other_allocates(int n) {
  char* volatile block = malloc((size_t)n);
  const int made = block != NULL && tc_version(NULL, NULL, NULL) != NULL;
  free(block);
  return made;
}
