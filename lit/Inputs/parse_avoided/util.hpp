// Input of launch_parse_avoided.test: a project header no unit marks anything in.
#pragma once
inline int add(int a, int b) { return a + b; }
