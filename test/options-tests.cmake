# The options object (ExperimentOptions) through the programs: bad values and misuse refused
# with exit status 2, issue 14's silent wrong results, the same flags predicting and simulating
# the same rounds (nine-city and a Topology Zoo GraphML file), the options table of the doc,
# trace files. Included by CMakeLists.txt (standalone build, BUILD_TESTING). Label: options.
set(IN_SIM $<TARGET_FILE:nine-city-training>)
set(IN_OPT $<TARGET_FILE:optimize-schedule>)
add_test(NAME options/bad-values
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test/options-errors.sh ${IN_SIM} ${IN_OPT})
add_test(NAME options/take-effect
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test/options-take-effect.sh ${IN_SIM})
add_test(NAME options/doc-table
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test/options-table.sh ${IN_SIM}
                 ${CMAKE_CURRENT_SOURCE_DIR}/doc/options-table.rst)
add_test(NAME options/traces COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test/traces.sh ${IN_SIM})
set(IN_OPTIONS_TESTS options/bad-values options/take-effect options/doc-table options/traces)
# The fluid CostModel charges one-point aggregation until TrafficPlanner::Exchange gives it the
# aggregation trees: compare aggregation like with like (--aggregation=single).
set(IN_SAME_FLAGS_aggregation --aggregation=single)
if(TARGET training-proxy AND TARGET training-curves)
  add_test(NAME options/training
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test/training-options.sh
                   $<TARGET_FILE:training-proxy> $<TARGET_FILE:training-curves>)
  list(APPEND IN_OPTIONS_TESTS options/training)
endif()
foreach(mode unicast aggregation)
  add_test(NAME options/same-flags-nine-city-${mode}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test/same-flags.sh ${IN_OPT} ${IN_SIM} ${mode}
                   --linkRate=5e9 ${IN_SAME_FLAGS_${mode}})
  list(APPEND IN_OPTIONS_TESTS options/same-flags-nine-city-${mode})
endforeach()
foreach(mode unicast multicast aggregation)
  add_test(NAME options/same-flags-zoo-${mode}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test/same-flags.sh ${IN_OPT} ${IN_SIM} ${mode}
                   --topology=${CMAKE_CURRENT_SOURCE_DIR}/test/data/zoo-test.graphml
                   ${IN_SAME_FLAGS_${mode}})
  list(APPEND IN_OPTIONS_TESTS options/same-flags-zoo-${mode})
endforeach()
set_tests_properties(${IN_OPTIONS_TESTS} PROPERTIES LABELS options TIMEOUT 600)
