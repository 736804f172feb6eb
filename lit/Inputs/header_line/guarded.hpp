// A header whose include guard holds the whole file: the header goes inside it.
#ifndef GUARDED_HPP
#define GUARDED_HPP

[[perf::measure]] inline int guarded(int x) {
  int idle;
  return x;
}

#endif  // GUARDED_HPP
