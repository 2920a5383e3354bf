/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Runs the module's ns-3 TestSuites through ns-3's TestRunner (standalone builds; in-tree,
// ns-3's own test-runner and test.py run them): --suite=NAME, --list, --verbose, ...
#include "ns3/test.h"

int
main(int argc, char* argv[])
{
    return ns3::TestRunner::Run(argc, argv);
}
