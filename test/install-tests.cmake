# cmake --install + a user's scenario built out of tree against the installed module (CMake
# package and pkg-config file). Included by CMakeLists.txt (standalone build, BUILD_TESTING).
add_test(NAME install/external-scenario
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test/install-test.sh ${CMAKE_CURRENT_SOURCE_DIR}
                 ${CMAKE_CURRENT_BINARY_DIR} ${CMAKE_CURRENT_BINARY_DIR}/test-install)
set_tests_properties(install/external-scenario PROPERTIES LABELS install TIMEOUT 900)
