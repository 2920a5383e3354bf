# The nine-city program run as a test: each mode end to end into a results database, and bad
# input rejected with clear errors.
add_test(NAME cli/bad-input
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test/cli-errors.sh
                 $<TARGET_FILE:nine-city-training> ${CMAKE_CURRENT_SOURCE_DIR}/data)
foreach(mode unicast multicast aggregation)
  add_test(NAME cli/nine-city-${mode}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test/run-nine-city.sh
                   $<TARGET_FILE:nine-city-training> ${mode})
endforeach()
set_tests_properties(cli/bad-input cli/nine-city-unicast cli/nine-city-multicast
                     cli/nine-city-aggregation PROPERTIES LABELS cli TIMEOUT 600)
# The optimizer's schedule drives the ns-3 scenario, in every mode.
if(TARGET optimize-schedule)
  foreach(mode unicast multicast aggregation)
    add_test(NAME cli/optimize-then-simulate-${mode}
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test/optimize-then-simulate.sh
                     $<TARGET_FILE:optimize-schedule> $<TARGET_FILE:nine-city-training> ${mode})
    set_tests_properties(cli/optimize-then-simulate-${mode} PROPERTIES LABELS cli TIMEOUT 600)
  endforeach()
endif()
# Synthetic topologies of 64 cities end to end: optimizer -> packet level on the same network.
if(TARGET optimize-schedule)
  add_test(NAME cli/synthetic-64-end-to-end
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test/synthetic-end-to-end.sh
                   $<TARGET_FILE:optimize-schedule> $<TARGET_FILE:nine-city-training> 64)
  set_tests_properties(cli/synthetic-64-end-to-end PROPERTIES LABELS cli TIMEOUT 600)
endif()
# Impossible input to the optimizer CLI is rejected clearly.
if(TARGET optimize-schedule)
  add_test(NAME cli/optimize-bad-input
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test/optimize-errors.sh
                   $<TARGET_FILE:optimize-schedule> ${CMAKE_CURRENT_SOURCE_DIR}/data)
  set_tests_properties(cli/optimize-bad-input PROPERTIES LABELS cli TIMEOUT 300)
  add_test(NAME cli/optimize-json
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test/optimize-json.sh
                   $<TARGET_FILE:optimize-schedule>)
  set_tests_properties(cli/optimize-json PROPERTIES LABELS cli TIMEOUT 300)
endif()
