#include <string>

std::string first(const std::string& text);

int main() { return first("a b c") == "a" ? 0 : 1; }
