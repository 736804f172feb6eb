# `cmake --build build --target package`: Debian packages through CPack, in two parts as
# Debian splits a library from its users:
#   libperfrt0       the runtime's shared libraries (libperfrt, libperfalloc, libperfexport,
#                    libperfcompare): all a measured program needs where it runs (a test
#                    machine), without LLVM and Clang;
#   perf-instrument  the rewriter, perf-report, the headers, the CMake package,
#                    perf-instrument.pc, the libraries' link names and the docs; it
#                    depends on libperfrt0 of its own version.
# Their other dependencies are Debian's packages, as dpkg-shlibdeps finds them from the
# binaries (libclang-cpp, libllvm, libfmt, libmicrohttpd, ...), libunwind8, which the
# runtime loads itself, and the Clang headers the rewriter parses with. Installed under /usr. The install rules name the component
# `runtime` for the libraries; every other rule is `tool` (CMAKE_INSTALL_DEFAULT_COMPONENT_NAME).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME perf-instrument)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "perf-instrument developers <perf-instrument@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Measure the C++ functions you mark: call counts, durations, samples")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime tool)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
set(CPACK_COMPONENT_TOOL_DEPENDS runtime)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libperfrt0)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
# libunwind is loaded at run time (dlopen, core/stack_unwind.cpp), which dpkg-shlibdeps
# cannot see: without it every stack would end at its first frame.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS libunwind8)
# Its own ldconfig scripts, which an install into another root (DPKG_ROOT) leaves out.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_EXTRA ${CMAKE_CURRENT_LIST_DIR}/debian/postinst
  ${CMAKE_CURRENT_LIST_DIR}/debian/postrm)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION
  "The shared libraries a program measured by perf-instrument links: statistics,\n tick log, crash record, sampler, allocation counting, the live endpoint.")
set(CPACK_DEBIAN_TOOL_PACKAGE_NAME perf-instrument)
set(CPACK_DEBIAN_TOOL_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_TOOL_DESCRIPTION
  "perf-instrument (a Clang rewriter that inserts measuring scopes), perf-report,\n the runtime's headers, CMake package and pkg-config file.")
if(PERF_BUILD_TOOL)
  # The rewriter parses with Clang's own headers (stddef.h, ...): PERF_CLANG_RESOURCE_DIR.
  set(CPACK_DEBIAN_TOOL_PACKAGE_DEPENDS "libclang-common-${PERF_LLVM_VERSION_MAJOR}-dev")
endif()
include(CPack)
