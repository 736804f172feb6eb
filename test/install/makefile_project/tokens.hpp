#include <string>
#include <vector>

std::vector<std::string> split(const std::string& text);
