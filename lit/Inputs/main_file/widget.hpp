inline int widget() {
  int idle;
  return 0;
}
