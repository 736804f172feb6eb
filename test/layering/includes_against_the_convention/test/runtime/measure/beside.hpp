// A fixture of test/format/check_includes.cmake: a header beside the file including it.
