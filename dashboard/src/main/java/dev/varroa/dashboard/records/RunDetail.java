package dev.varroa.dashboard.records;

import java.time.Instant;
import java.util.List;

/**
 * GET /runs/{runId}: the run, its stages (parallel branches included) in start order, and its test totals (null when
 * none were reported). The JSON puts the run's fields at the top level beside {@code stages} and {@code tests}.
 */
public record RunDetail(RunItem run, List<Stage> stages, TestTotals tests) {

  public RunDetail {
    stages = List.copyOf(stages);
  }

  /** {@code {id, name, parallelBranch, status, startedAt, endedAt, durationMillis}}; parallelBranch "" outside one. */
  public record Stage(String id, String name, String parallelBranch, String status, Instant startedAt,
      Instant endedAt, Long durationMillis) {
  }

  /** {@code {total, failed, skipped}}. */
  public record TestTotals(int total, int failed, int skipped) {
  }
}
