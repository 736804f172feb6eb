int count_up(int n) { return n + 1; }
int count_down(int n) { return n - 1; }
int unmatched(int n) { return n * 2; }

int main() {
  int n = 0;
  for (int i = 0; i < 5; ++i) n = count_up(n);
  for (int i = 0; i < 2; ++i) n = count_down(n);
  return unmatched(n) == 6 ? 0 : 1;
}
