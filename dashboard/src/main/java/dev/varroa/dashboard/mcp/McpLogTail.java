package dev.varroa.dashboard.mcp;

import dev.varroa.dashboard.identity.Caller;
import dev.varroa.dashboard.reads.ReadRefused;
import dev.varroa.dashboard.reads.RecordReads;

/**
 * Reads the end of a run's console log for the get_run_log_tail tool. The tool has already checked that the caller
 * may get logs of the run's Controller, so an implementation only reads bytes.
 */
@FunctionalInterface
public interface McpLogTail {

  /** The last at most maxBytes bytes of the run's log, cut at a whole UTF-8 character; 404 when it has none. */
  LogTail tail(Caller caller, RecordReads.RunView run, int maxBytes) throws ReadRefused;

  /**
   * @param text the tail, decoded as UTF-8
   * @param from the byte offset the tail starts at (0 when it is the whole log)
   * @param size the log's size in bytes so far
   * @param complete whether the run finished and the log will not grow
   */
  record LogTail(String text, long from, long size, boolean complete) {}
}
