// A vendored library's header: its own unit finds it through -I, the project's
// units through -isystem. It is a system header, never edited.
inline int vendor_twice(int x) { return 2 * x; }
int vendor_answer();
