extern "C" int checksum(const char* text);
int modern_checksum(const char* text) { return checksum(text); }
