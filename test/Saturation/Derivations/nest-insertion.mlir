// Cause 4 of issue 46 (loop nests moved into a loop), at the default
// --tile-saturate options. The start and goal programs are the insertion
// rules' own tests (test/Rules/Insertion), which run the one rule alone.
//
// RUN: not tile-opt %S/../../Rules/Insertion/loop-insertion-recompute.mlir --tile-saturate="goal=%S/../../Rules/Insertion/Inputs/loop-insertion-recompute.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=RECOMPUTE
// RUN: not tile-opt %S/../../Rules/Insertion/loop-insertion-producer.mlir --tile-saturate="goal=%S/../../Rules/Insertion/Inputs/loop-insertion-producer.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PRODUCER
//
// The statistic of an RMSNorm (a loop nest accumulating S over the columns,
// S's only writer) moves into the loop that reads S, as `S = 0; nest`: each
// iteration recomputes it. Blocked where the loop writes what the nest
// reads, where another statement writes S first, where the loop does not
// read S, and where the nest accumulates a matmul.
// RECOMPUTE-DAG: remark: goal @fires is represented
// RECOMPUTE-DAG: error: goal @writes_input is not represented
// RECOMPUTE-DAG: error: goal @two_writers is not represented
// RECOMPUTE-DAG: error: goal @no_read is not represented
// RECOMPUTE-DAG: error: goal @matmul is not represented
//
// An idempotent producer nest (the normalized rows) moves into the loop that
// reads all of it. Blocked where the loop writes what the nest reads, where
// the nest reads what it writes, where it computes a matmul, and where the
// loop reads only a slice that moves with it (that is fusion's case).
// PRODUCER-DAG: remark: goal @fires is represented
// PRODUCER-DAG: error: goal @writes_input is not represented
// PRODUCER-DAG: error: goal @reads_own is not represented
// PRODUCER-DAG: error: goal @matmul is not represented
// PRODUCER-DAG: error: goal @sliced is not represented
