package dev.varroa.plugin.logs;

import java.io.IOException;
import java.io.OutputStream;

/**
 * What the glue puts around a run's console stream: every byte goes to Jenkins' own log first, unchanged, then into
 * the run's {@link LogCopy}. A copy's trouble never reaches the build; Jenkins' trouble reaches it as before.
 * Closing closes Jenkins' stream only: Pipeline opens and closes a run's streams many times, the run's end is
 * {@code PluginCore.runFinished}.
 */
public final class ConsoleLogSink extends OutputStream {

  private final OutputStream jenkinsLog;
  private final LogCopy copy;

  ConsoleLogSink(OutputStream jenkinsLog, LogCopy copy) {
    this.jenkinsLog = jenkinsLog;
    this.copy = copy;
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] bytes, int offset, int count) throws IOException {
    // one lock per run around both writes: parallel branches land in the copy in the order Jenkins' log got them
    synchronized (copy) {
      jenkinsLog.write(bytes, offset, count);
      copy.append(bytes, offset, count);
    }
  }

  @Override
  public void flush() throws IOException {
    jenkinsLog.flush();
  }

  @Override
  public void close() throws IOException {
    jenkinsLog.close();
  }
}
