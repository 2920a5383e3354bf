# Examples run as CTest tests with small parameters (a few MB model, 1-2 rounds: seconds each).
# Included by CMakeLists.txt (standalone build, BUILD_TESTING). Label: example. A test passes
# on exit status 0 (every example exits non-zero when a simulation is incomplete) without an
# error message in its output.
set(IN_EXAMPLE_TEST_ARGS_nine-city-training --modelBytes=2e6 --rounds=2 --db=none)
set(IN_EXAMPLE_TEST_ARGS_my-first-scenario --modelBytes=2e6 --rounds=2)
set(IN_EXAMPLE_TEST_ARGS_schedule-comparison --modelBytes=5e5 --rounds=2
    --schedules=all-in-one,3x3-rotating,ring)
set(IN_EXAMPLE_TEST_ARGS_multicast-alone --modelBytes=2e6)
set(IN_EXAMPLE_TEST_ARGS_aggregation-alone --modelBytes=2e6 --hubIslands=4)
set(IN_EXAMPLE_TEST_ARGS_loss-envelope-bound --schedule=3x3-rotating --rounds=2 --lossRate=0.05
    --mode=multicast)
set(IN_EXAMPLE_TEST_ARGS_training-proxy --modelBytes=1e6 --rounds=3 --mode=aggregation
    --db=none)
set(IN_EXAMPLE_TEST_ARGS_training-curves --horizon=20 --hidden=32 --samplesPerIsland=512
    --referenceHorizon=10 --period=2 --modelBytes=1e8 --computeTime=0.05 --localSteps=20
    --csv=${CMAKE_CURRENT_BINARY_DIR}/example-training-curves.csv
    --json=${CMAKE_CURRENT_BINARY_DIR}/example-training-summary.json)

foreach(example ${IN_EXAMPLES})
  if(TARGET ${example} AND DEFINED IN_EXAMPLE_TEST_ARGS_${example})
    add_test(NAME example-${example} COMMAND ${example} ${IN_EXAMPLE_TEST_ARGS_${example}})
    set_tests_properties(example-${example} PROPERTIES LABELS example TIMEOUT 300
                         FAIL_REGULAR_EXPRESSION "INCOMPLETE|error:")
  endif()
endforeach()
