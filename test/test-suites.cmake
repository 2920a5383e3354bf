# Registers every ns-3 TestSuite of the module with CTest (standalone build).
set(IN_NS3_SUITES
    intelligent-network-exchange
    intelligent-network-collectives
    intelligent-network-routers
    intelligent-network-faults
    intelligent-network-loss-envelope
    intelligent-network-fluid
    intelligent-network-training
    intelligent-network-fabric
    intelligent-network-options
    intelligent-network-aggtree
    intelligent-network-transport
    intelligent-network-ecn
    intelligent-network-channel
)
foreach(suite ${IN_NS3_SUITES})
  add_test(NAME ns3-suite/${suite}
           COMMAND intelligent-network-test-runner --suite=${suite})
  set_tests_properties(ns3-suite/${suite} PROPERTIES LABELS ns3 TIMEOUT 900)
endforeach()
