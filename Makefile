# The project's front door. `make demo` and `make test` are the README's two commands;
# each installs what it needs on a fresh machine, then builds with Maven.
# Builds go through scripts/quiet-build.sh: one line per Maven module, the whole output in
# build.log, and on failure the errors and the log's path. `make test` is the exception: its
# build and its tests are one Maven run (ctest inside the native module, JUnit in every module)
# whose output CI reads, so it prints everything as before.
SHELL := /bin/bash
MVN   ?= mvn -B -ntp
JAVA  ?= java
BUILD := MVN='$(MVN)' ./scripts/quiet-build.sh

.PHONY: deps build bench-build test format format-check demo secure-demo checkpoint-demo store-demo migration-demo process-crash-test process-crash-test-ha nnthroughput bench bench-quick bench-targets bench-heap-attrs bench-ha bench-snapshots upstream-tests crash-test fuzz fuzz-rpc fuzz-rpc-short bench-micro clean ez-demo ha-demo snapshot-demo

# System packages: libpmem (PMDK) with its pkg-config file, CMake, a C compiler, JDK 17, Maven,
# Python 3 (the benchmark suite's ratios and charts, and their tests), clang-format (the C half of
# the formatter configuration, checked by make test).
APT_PACKAGES := libpmem-dev pkg-config cmake gcc make openjdk-17-jdk-headless maven python3 clang-format
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else echo "missing packages:$$missing — run 'sudo apt-get install -y$$missing' first"; exit 1; fi; \
	fi

# Installs the modules into the local Maven repository: crash-test and upstream-tests run Maven
# in nvm-it alone, which takes its sibling modules from there.
build: deps
	@$(BUILD) -DskipTests install

# The suite's Python tests (ratios and targets), then the C tests (ctest) and Java tests (JUnit),
# driven by Maven.
test: deps format-check
	python3 -B -m unittest discover -s benchmarks/suite -p 'test_*.py'
	$(MVN) install
	$(MAKE) fuzz-rpc-short

# The short run of the differential RPC fuzzer that `make test` includes (docs/bad-input.md): a fixed
# seed, 3,000 calls, a SIGKILL and restart of both NameNodes every 1,000; fails on any divergence.
fuzz-rpc-short:
	OPS=3000 K=1000 SEED=1 SHRINK_SECONDS=60 SHRINKS=2 ./scripts/test/fuzz-rpc.sh

# The one formatter configuration (root pom.xml: google-java-format for Java, clang-format with
# .clang-format for C): format applies it, format-check fails on any file that differs.
format: deps
	$(MVN) -q spotless:apply

format-check: deps
	@$(MVN) -q spotless:check || { echo "format-check: run 'make format' (google-java-format, clang-format)"; exit 1; }

# NVM NameNode + DataNode processes on loopback, a workload, kill -9, restart, compare.
demo: build
	./scripts/demo/namenode-demo.sh

# Incremental replication with the unmodified distcp 2.7.3 (-update -diff) from an NVM source cluster
# (snapshot preview) to a stock target, with a kill -9 of the NVM NameNode in every round.
snapshot-demo: build
	./scripts/demo/snapshot-demo.sh

# Kerberos with real processes: a KDC (MiniKdc), NVM NameNode and DataNode with their own principals,
# SASL data transfer, HTTPS only; a client holding only a delegation token across kill -9 restarts.
secure-demo: build
	./scripts/demo/secure-demo.sh

# Checkpoint tooling and start-up options with real processes: the SecondaryNameNode refused at once,
# fetchImage only of a current fsimage (hdfs oiv reads it), namenode -recover/-rollback/-upgrade.
checkpoint-demo: build
	./scripts/demo/checkpoint-demo.sh

# Encryption zones with real processes: a KMS (hadoop-kms 2.7.3), an NVM NameNode using it, a DataNode;
# files written into a zone, kill -9 and restart, read back decrypted; a second zone after the restart.
ez-demo: build
	./scripts/demo/ez-demo.sh

# NameNode HA with real processes: ZooKeeper, three JournalNodes, two NameNodes with their ZKFCs, two
# DataNodes and a load client; kill -9 of the active, time to the first operation the new active
# acknowledges, the killed one back as standby, every acknowledged operation verified.
# MODE=nvm (default) | mixed (nn1 NVM, nn2 stock, a failover each way) | stock | all (nvm, then mixed).
ha-demo: build
	MODE='$(MODE)' ROUNDS='$(ROUNDS)' PERSIST='$(PERSIST)' POWER_LOSS='$(POWER_LOSS)' ./scripts/demo/ha-demo.sh

# NameNode + DataNode processes, a 4-thread client workload, 20 SIGKILLs of the NameNode at random
# moments; every acknowledged operation must survive. KILLS=, SEED=, THREADS= to vary; HA=1 is
# process-crash-test-ha; PERSIST=disk puts the region and its write-ahead log on disk (the disk mode).
process-crash-test: build
	KILLS='$(KILLS)' SEED='$(SEED)' THREADS='$(THREADS)' HA='$(HA)' PERSIST='$(PERSIST)' ./scripts/test/process-crash-test.sh

# The same workload against an HA pair (ZooKeeper, three JournalNodes, two NVM NameNodes with ZKFCs,
# two DataNodes; the client through the failover proxy provider): 20 SIGKILLs of the active
# NameNode, each followed by the failover and the killed NameNode's restart as standby; a JournalNode
# SIGKILLed and restarted every JN_KILL_EVERY (5) kills. NVM=false|mixed, KILLS=, SEED=, THREADS=.
process-crash-test-ha: build
	HA=1 KILLS='$(KILLS)' SEED='$(SEED)' THREADS='$(THREADS)' NVM='$(NVM)' PERSIST='$(PERSIST)' JN_KILL_EVERY='$(JN_KILL_EVERY)' ./scripts/test/process-crash-test.sh

# docs/migration.md with real processes: stock -> import -> NVM -> saveNamespace -> the stock jar; cost for
# MIGRATION_BIG=100000 files (0 skips it).
migration-demo: build
	MIGRATION_FILES='$(MIGRATION_FILES)' MIGRATION_BIG='$(MIGRATION_BIG)' ./scripts/demo/migration-demo.sh

# The persistent inode store on its own: undo log, crash images, recovery.
store-demo: build
	./scripts/demo/store-demo.sh

# The benchmark suite's runtime: `package` only (the reactor resolves the modules among
# themselves; nothing is installed into the local Maven repository); then Hadoop 3.5.0's runtime
# for the suite's h35-* anchor configurations (benchmarks/hadoop35: not in the reactor, so
# `make test` neither builds nor tests it).
bench-build: deps
	@$(BUILD) -DskipTests package
	@$(BUILD) -f benchmarks/hadoop35/pom.xml -DskipTests package

# The side-by-side benchmark suite (docs/benchmarks.md; benchmarks/suite/bench.sh runs its driver,
# bench_driver.py, whose profiles are bench_profiles.py): six of the seven 2.7.3 configurations
# (stock-disk, stock-tmpfs, stock-nojournal, nvm-emulated, nvm-disk, nvm-cold; nvm-warm runs only
# when named in CONFIGS), same jar, the HA pairs, and Hadoop 3.5.0's own NNThroughputBenchmark
# (h35-disk, h35-tmpfs, h35-fgl-disk, h35-fgl-tmpfs); interleaved runs, results.csv / ratios.csv /
# charts under benchmarks/results/<timestamp>/.
bench: bench-build
	./benchmarks/suite/bench.sh full

# A subset of the suite: under 6 minutes, build included, on the project's 2-core machine when quiet;
# five configurations (stock-disk, stock-tmpfs, stock-nojournal, nvm-emulated, nvm-disk).
bench-quick: bench-build
	./benchmarks/suite/bench.sh quick

# The measurements behind the NNThroughputBenchmark and restart targets (write/read ops at 2 and 8
# threads, nvm-disk beside stock-disk, restart at 100k and 1M files), with Hadoop 3.5.0's
# NNThroughputBenchmark (the four h35-* configurations) interleaved as an anchor; 78 minutes on the
# project's 2-core machine when it was quiet (run 20261127-140255, with the nvm-msync series where
# nvm-disk now runs). The streaming and NNBenchWithoutMR targets: bench.sh targets streaming
# nnbench-nomr.
bench-targets: bench-build
	./benchmarks/suite/bench.sh targets

# The suite's NNThroughputBenchmark part alone: 100k ops, 2 threads, 3 interleaved runs.
nnthroughput: bench-build
	./benchmarks/suite/bench.sh nnthroughput

# Heap per file with and without attributes (an ACL and two xattrs per file), stock-tmpfs against
# nvm-emulated in the same run: 500k files of each kind, 2 interleaved runs (HEAP_ATTRS_N, HEAP_ATTRS_RUNS).
bench-heap-attrs: bench-build
	./benchmarks/suite/bench.sh heap-attrs

# HA in the suite (docs/benchmarks.md, "HA"): NNBenchWithoutMR and streaming in the five HA configurations
# (stock pairs, NVM pairs in the emulated and the disk mode, the JournalNodes' edits on disk and on
# tmpfs) beside stock-disk, stock-tmpfs, nvm-emulated and nvm-disk, and the HA timings (catch-up,
# failover, standby restart, active restart, rejoin; stock HA against NVM HA in both modes at 50k
# files, 3 runs); about 30 minutes on the project's 2-core machine.
bench-ha: bench-build
	./benchmarks/suite/bench.sh ha

# deleteSnapshot of a 1M-file tree with a diff on every tenth file (docs/benchmarks.md, "Snapshots"):
# its time and the longest wait of a concurrent reader for the namesystem lock; and 5,000 each of
# create, mkdirs, rename and delete with 0 and with 100 snapshots over their directories; stock-disk,
# stock-tmpfs, nvm-emulated and nvm-disk interleaved, 2 runs (SNAP_* in wl-snapshots.sh).
bench-snapshots: bench-build
	./benchmarks/suite/bench.sh snapshots

# Upstream HDFS test classes from the 2.7.3 tests jar, NVM off and on; CLASSES='TestA,TestB' for others.
upstream-tests: build
	CLASSES='$(CLASSES)' FORKS='$(FORKS)' FULL='$(FULL)' ./scripts/test/upstream-tests.sh

# Every persist point of every NameNode mutation crashed (lost/present images), recovered, checked.
crash-test: build
	./scripts/test/crash-test.sh

# libFuzzer (clang, ASan+UBSan) over region images through open/recovery; FUZZ_SECONDS=120.
fuzz: deps
	FUZZ_SECONDS='$(FUZZ_SECONDS)' FUZZ_JOBS='$(FUZZ_JOBS)' ./scripts/test/fuzz.sh

# The differential RPC fuzzer (docs/bad-input.md): a stock and an NVM NameNode process fed the same
# seeded ClientProtocol calls with hostile arguments, answers compared, both SIGKILLed and restarted
# every K calls and their namespaces compared; divergences shrunk to short reproductions. Builds with
# `package` only. OPS=1000000 K=10000 (about 30-40 minutes here), SEED=, SKIP=tag,... to vary.
fuzz-rpc: bench-build
	OPS='$(OPS)' SEED='$(SEED)' K='$(K)' SKIP='$(SKIP)' HOSTILE='$(HOSTILE)' SHRINK_SECONDS='$(SHRINK_SECONDS)' SNAPSHOTS='$(SNAPSHOTS)' ./scripts/test/fuzz-rpc.sh

# Store micro-benchmarks (JMH), emulated persistence on tmpfs.
bench-micro: build
	./benchmarks/bin/store-microbench.sh

clean:
	$(MVN) -q clean || true
	rm -f build.log
