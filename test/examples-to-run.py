#! /usr/bin/env python3
# Examples that ns-3's test.py runs when this module is built in an ns-3 source tree
# (contrib/intelligent-network). Each entry: (example name and arguments, run condition,
# valgrind condition). Small models keep them to seconds.
cpp_examples = [
    ("nine-city-training --modelBytes=2e6 --rounds=2 --db=none", "True", "False"),
    ("nine-city-training --modelBytes=2e6 --rounds=2 --db=none --mode=multicast", "True", "False"),
    ("nine-city-training --modelBytes=2e6 --rounds=2 --db=none --mode=aggregation", "True", "False"),
    ("my-first-scenario --modelBytes=2e6 --rounds=2", "True", "False"),
    ("multicast-alone --modelBytes=2e6", "True", "False"),
    ("aggregation-alone --modelBytes=2e6 --hubIslands=4", "True", "False"),
    ("loss-envelope-bound --schedule=3x3-rotating --rounds=2 --lossRate=0.05", "True", "False"),
    ("schedule-comparison --modelBytes=5e5 --rounds=2 --schedules=all-in-one,3x3-rotating", "True", "False"),
    ("training-proxy --modelBytes=1e6 --rounds=3 --db=none", "True", "False"),
]

python_examples = []
