package dev.varroa.dashboard.logs;

import dev.varroa.dashboard.identity.Caller;
import dev.varroa.dashboard.mcp.McpLogTail;
import dev.varroa.dashboard.records.RecordLookup;
import dev.varroa.dashboard.reads.ReadRefused;
import dev.varroa.dashboard.reads.RecordReads;
import dev.varroa.recorder.logs.LogStoreException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.Arrays;

/** The end of a run's console log for the MCP tool, in whole UTF-8 characters. */
public final class ConsoleLogTail implements McpLogTail {

  private final ConsoleLogs logs;

  public ConsoleLogTail(ConsoleLogs logs) {
    this.logs = logs;
  }

  @Override
  public LogTail tail(Caller caller, RecordReads.RunView run, int maxBytes) throws ReadRefused {
    String runId = (String) run.body().get("runId");
    try {
      RecordLookup<ConsoleLogs.LogRange> probe = logs.read(runId, 0, 1, scope -> true);
      if (!(probe instanceof RecordLookup.Found<ConsoleLogs.LogRange> first)) {
        throw ReadRefused.notFound("run " + runId + " is not recorded");
      }
      long size = first.value().size();
      long from = Math.max(0, size - maxBytes);
      int length = (int) Math.max(1, Math.min(maxBytes, size - from));
      RecordLookup<ConsoleLogs.LogRange> read = logs.read(runId, from, length, scope -> true);
      if (!(read instanceof RecordLookup.Found<ConsoleLogs.LogRange> range)) {
        throw ReadRefused.notFound("run " + runId + " is not recorded");
      }
      byte[] bytes = range.value().bytes();
      // a tail that starts inside a character starts at the next one
      int start = 0;
      while (start < bytes.length && from > 0 && (bytes[start] & 0xC0) == 0x80) {
        start++;
      }
      int end = Utf8Boundary.completePrefix(bytes, bytes.length);
      String text = new String(Arrays.copyOfRange(bytes, start, Math.max(start, end)), StandardCharsets.UTF_8);
      return new LogTail(text, from + start, range.value().size(), range.value().complete());
    } catch (SQLException | LogStoreException e) {
      throw ReadRefused.unavailable("the console log of run " + runId + " could not be read: " + e.getMessage());
    }
  }
}
