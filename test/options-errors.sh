#!/usr/bin/env bash
# Bad or extreme option values (issue 15) and option/attribute misuse: each case must exit with
# status 2 before anything is simulated, with a message naming the flag (or attribute) and the
# accepted range; never a crash (SIGFPE, abort), a hang, exit 1 or a silent run.
# Usage: options-errors.sh <nine-city-training> <optimize-schedule>
set -u
SIM="$1"
OPT="$2"
MATCH=-F
EXPECT_TIMEOUT=60
# shellcheck source=test/expect-error.sh
source "$(dirname "${BASH_SOURCE[0]}")/expect-error.sh"

BIN="$SIM"
FIXED_ARGS=(--db=none --quiet=1 --schedule=all-in-one --modelBytes=1e5 --rounds=1)
# Range and overflow (ns-3 would overflow, divide by zero or abort).
expect_error compute-1e300 "--computeTime=1e300: out of range (accepted: 0 .. 1e+06 s)" --computeTime=1e300
expect_error compute-1e10 "--computeTime=1e10: out of range" --computeTime=1e10
expect_error rate-below-1 "--linkRate=0.5: out of range (accepted: 0 (keep the topology's) or 1 .. <1.8e19 bit/s)" --linkRate=0.5
expect_error rate-2e19 "--accessRate=2e19: out of range" --accessRate=2e19
expect_error model-1e30 "--modelBytes=1e30: out of range (accepted: whole numbers 1 .. 1000000000000000)" --modelBytes=1e30
expect_error segment-65536 "--segmentSize=65536: out of range (accepted: whole numbers 8 .. 65479)" --segmentSize=65536 --mtu=65535
expect_error segment-count "32-bit sequence numbers" --modelBytes=1e15 --segmentSize=8
expect_error segment-mtu "more than the MTU (--mtu=1500" --mtu=1500
expect_error compute-per-round "more than 1e6 s of compute per round" --computeTime=1e5 --localSteps=100
expect_error loss-1 "--lossRate=1: out of range (accepted: 0 .. <1)" --lossRate=1
expect_error slot-not-4 "--slotBytes=8193: must be a multiple of 4" --slotBytes=8193
# Integers parsed as integers.
expect_error rounds-negative "--rounds=-1: out of range (accepted: whole numbers 1 .. 1000000)" --rounds=-1
expect_error rounds-fraction "--rounds=1.5: not a whole number" --rounds=1.5
expect_error rounds-nan "--rounds=nan: not a number" --rounds=nan
expect_error rounds-inf "--rounds=inf: not a number" --rounds=inf
expect_error rounds-word "--rounds=abc: not a number" --rounds=abc
expect_error rounds-1e999 "--rounds=1e999: not a finite number" --rounds=1e999
expect_error rounds-empty "--rounds=: not a number (empty)" --rounds=
expect_error compute-nan "--computeTime=nan: not a number" --computeTime=nan
expect_error compute-inf "--computeTime=inf: not a number" --computeTime=inf
expect_error barrier-word "--barrier=maybe: not a flag" --barrier=maybe
expect_error repair-word "--multicastRepair=xor: not one of parity | resend" --multicastRepair=xor
expect_error parity-block-0 "--parityBlock=0: out of range (accepted: whole numbers 1 .. 4096)" --parityBlock=0
expect_error parity-confidence-1 "--parityConfidence=1: out of range (accepted: 0 .. 0.999)" --parityConfidence=1
expect_error parity-confidence-nan "--parityConfidence=nan: not a number" --parityConfidence=nan
expect_error attr-repair "--ns3::UdpTransport::MulticastRepair=fec: not one of parity | resend" --ns3::UdpTransport::MulticastRepair=fec
# Attributes given on the command line get the same checks.
expect_error attr-compute-1e300 "--ns3::TrainingIsland::ComputeTime=1e300s: out of range" --ns3::TrainingIsland::ComputeTime=1e300s
expect_error attr-rate-0.5 "--ns3::FpgaAggregator::Throughput=0.5bps: out of range" --ns3::FpgaAggregator::Throughput=0.5bps
expect_error attr-integer "--ns3::UdpTransport::AckInterval=1.5: not a whole number" --ns3::UdpTransport::AckInterval=1.5
expect_error attr-checker "--ns3::UdpTransport::MaxNackRanges=2000000: refused by the attribute" --ns3::UdpTransport::MaxNackRanges=2000000
expect_error attr-unknown-type "--ns3::NoSuchType::X: unknown type 'ns3::NoSuchType'" --ns3::NoSuchType::X=1
expect_error attr-unknown-name "ns3::TrainingIsland has no attribute 'NoSuch'" --ns3::TrainingIsland::NoSuch=1
expect_error global-negative "--RngRun=-1: out of range" --RngRun=-1
expect_error own-attribute "--ns3::ExperimentOptions::LinkRate=0.5: out of range" --ns3::ExperimentOptions::LinkRate=0.5
# One setting, two forms: different values are refused.
expect_error two-forms "--computeTime=0.5 and --ns3::TrainingIsland::ComputeTime=1s are the same setting with different values" \
  --computeTime=0.5 --ns3::TrainingIsland::ComputeTime=1s
expect_error two-forms-mtu "--mtu=9000 and --ns3::PointToPointNetDevice::Mtu=1500 are the same setting" \
  --mtu=9000 --ns3::PointToPointNetDevice::Mtu=1500
# An attribute the program sets itself is refused, not silently overridden.
expect_error overridden "--ns3::PointToPointNetDevice::DataRate=1000000000bps did not take effect" \
  --ns3::PointToPointNetDevice::DataRate=1Gbps
# Options that would have no effect, unknown options, stray words.
expect_error not-here "--wanRate is not an option of nine-city-training" --wanRate=1e9
expect_error unknown-option "unknown option --linkrate" --linkrate=1e9
expect_error stray-word "unexpected argument 'fast'" fast
expect_error optimizer-with-file "--period=3 would have no effect" --period=3
expect_error seed-with-file "--seed=7 would have no effect" --seed=7
expect_error graphml-only "--fibreFactor=2 would have no effect: it applies to GraphML" --fibreFactor=2
# ns-3's globals: a TypeId that is no scheduler or simulator (ns-3 aborted or crashed), and the
# same through NS_GLOBAL_VALUE, which ns-3 reads at start-up and ignored or replaced silently.
expect_error scheduler-not "--SchedulerType=ns3::Node: not an event scheduler" --SchedulerType=ns3::Node
expect_error simulator-not "--SimulatorImplementationType=bogus: not a simulator implementation" \
  --SimulatorImplementationType=bogus
expect_error simulator-mpi "not a simulator implementation these programs run" \
  --SimulatorImplementationType=ns3::DistributedSimulatorImpl
NS_GLOBAL_VALUE=SchedulerType=bogus expect_error env-scheduler \
  "NS_GLOBAL_VALUE entry SchedulerType=bogus: out of range"
NS_GLOBAL_VALUE='RngSeed=2;Bogus=1' expect_error env-unknown \
  "NS_GLOBAL_VALUE entry Bogus: not an ns-3 global"
NS_GLOBAL_VALUE=RngRun=-1 expect_error env-run-negative "NS_GLOBAL_VALUE entry RngRun=-1: out of range"
NS_GLOBAL_VALUE=ChecksumEnabled=maybe expect_error env-bool "NS_GLOBAL_VALUE entry ChecksumEnabled=maybe"
NS_LOG=Bogus expect_error log-unknown "NS_LOG: 'Bogus' is not a log component"
NS_LOG='UdpTransport=info:Bogus=info' expect_error log-unknown-second "NS_LOG: 'Bogus' is not"
# TCP: a segment beyond the MTU, a buffer below one segment (a zero window: the run stalled
# until its 100000 s limit), a socket attribute the transport sets on every socket (ignored).
expect_error tcp-mss-mtu "--tcpSegmentSize=65000 needs IP packets of 65052 bytes, more than the MTU" \
  --transport=tcp --tcpSegmentSize=65000
expect_error tcp-rcvbuf-1 "--tcpRcvBuf=1: less than one TCP segment" --transport=tcp --tcpRcvBuf=1
expect_error tcp-socket-attribute "the tcp transport sets it on every socket (set it with --tcpSegmentSize)" \
  --transport=tcp --ns3::TcpSocket::SegmentSize=1000
expect_error print-attributes "--PrintAttributes=ns3::Type needs a type" --PrintAttributes=bogus

BIN="$OPT"
FIXED_ARGS=(--baselines=0 --period=1 --iterations=10)
expect_error opt-compute-1e300 "--computeTime=1e300: out of range" --computeTime=1e300
expect_error opt-rate-below-1 "--linkRate=0.5: out of range" --linkRate=0.5
expect_error opt-rounds-word "--period=abc: not a number" --period=abc
expect_error opt-no-simulation "--ns3::UdpTransport::AckInterval would have no effect: optimize-schedule runs no packet-level simulation" \
  --ns3::UdpTransport::AckInterval=8
expect_error opt-no-rng "--RngRun would have no effect" --RngRun=3
expect_error opt-islands-trailing "--islands=AMS,FRA,: empty item" --islands=AMS,FRA,
expect_error opt-patterns-twice "--patterns=ring,ring: ring twice" --patterns=ring,ring
expect_error opt-capabilities-twice "capabilities: unicast twice" --capabilities=unicast,unicast
NS_LOG=Bogus expect_error opt-log-unknown "NS_LOG: 'Bogus' is not a log component"
NS_GLOBAL_VALUE=RngRun=3 expect_error opt-no-rng-env "NS_GLOBAL_VALUE=RngRun=3 would have no effect"
expect_error opt-two-forms "are the same setting with different values" \
  --modelBytes=1e6 --ns3::TrainingIsland::ModelBytes=2000000
finish_cases "every bad option rejected with exit status 2 and the flag named"
