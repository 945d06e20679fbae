package dev.varroa.plugin.logs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogCopiesTest {

  @TempDir
  Path home;

  private final List<String> warnings = new CopyOnWriteArrayList<>();
  private final Logger copiesLog = Logger.getLogger(LogCopies.class.getName());
  private final Handler capture = new Handler() {
    @Override
    public void publish(LogRecord record) {
      warnings.add(record.getMessage());
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
  };

  @BeforeEach
  void listen() {
    copiesLog.addHandler(capture);
  }

  @AfterEach
  void stopListening() {
    copiesLog.removeHandler(capture);
  }

  @Test
  void passesEveryByteToJenkinsUnchangedAndKeepsTheSameBytesInTheCopy() throws Exception {
    LogCopies copies = LogCopies.open(LogCopies.directoryOf(home), 1 << 20);
    ByteArrayOutputStream jenkins = new ByteArrayOutputStream();
    LogCopy copy = copies.copy("run-1", "team/app");

    try (OutputStream sink = copy.sink(jenkins)) {
      sink.write("Started by user admin\n".getBytes(StandardCharsets.UTF_8));
      sink.write('+');
      sink.write(" make\r\n\u00e9\u0000".getBytes(StandardCharsets.UTF_8), 0, 7);
    }

    byte[] expected = "Started by user admin\n+ make\r\n".getBytes(StandardCharsets.UTF_8);
    assertThat(jenkins.toByteArray()).isEqualTo(expected);
    assertThat(copy.read(0, 1000)).isEqualTo(expected);
    assertThat(Files.readAllBytes(home.resolve("varroa/logs/run-1.log"))).isEqualTo(expected);
    assertThat(copies.status().usedBytes()).isEqualTo(expected.length);
    // closing one stream is not the run's end: Pipeline opens and closes a run's streams many times
    assertThat(copy.finished()).isFalse();
    copy.sink(new ByteArrayOutputStream()).write('x');
    assertThat(copy.length()).isEqualTo(expected.length + 1);
  }

  @Test
  void aRestartTakesOverEachCopyWithItsShippedOffsetAndFinishedMark() throws Exception {
    Path dir = LogCopies.directoryOf(home);
    LogCopies before = LogCopies.open(dir, 1 << 20);
    LogCopy running = before.copy("run-running", "team/app");
    running.append(bytes(100), 0, 100);
    running.shippedThrough(60);
    LogCopy done = before.copy("run-done", "team/lib");
    done.append(bytes(10), 0, 10);
    before.finished("run-done");
    before.close();

    LogCopies after = LogCopies.open(dir, 1 << 20);

    assertThat(after.runIds()).containsExactlyInAnyOrder("run-running", "run-done");
    assertThat(after.status().usedBytes()).isEqualTo(110);
    LogCopy resumed = after.copy("run-running", "team/app");
    assertThat(resumed.length()).isEqualTo(100);
    assertThat(resumed.shipped()).isEqualTo(60);
    assertThat(resumed.finished()).isFalse();
    assertThat(after.copy("run-done", "team/lib").finished()).isTrue();
    assertThat(after.copy("run-done", "team/lib").job()).isEqualTo("team/lib");
    // a resumed Pipeline keeps writing where the copy ended
    resumed.sink(new ByteArrayOutputStream()).write(new byte[] {'a', 'b'});
    assertThat(resumed.read(98, 10)).containsExactly(bytes(100)[98], bytes(100)[99], (byte) 'a', (byte) 'b');
  }

  @Test
  void pastTheCapARunsCopyStopsForGoodWhileJenkinsGetsEverything() throws Exception {
    LogCopies copies = LogCopies.open(LogCopies.directoryOf(home), 100);
    ByteArrayOutputStream jenkinsA = new ByteArrayOutputStream();
    ByteArrayOutputStream jenkinsB = new ByteArrayOutputStream();
    OutputStream a = copies.copy("run-a", "team/a").sink(jenkinsA);
    OutputStream b = copies.copy("run-b", "team/b").sink(jenkinsB);

    a.write(bytes(60));
    b.write(bytes(60));
    b.write(bytes(10));
    a.write(bytes(30));

    assertThat(jenkinsA.size()).isEqualTo(90);
    assertThat(jenkinsB.size()).isEqualTo(70);
    assertThat(copies.copy("run-a", "team/a").length()).isEqualTo(90);
    LogCopy cut = copies.copy("run-b", "team/b");
    assertThat(cut.length()).isZero();
    assertThat(cut.cut()).isTrue();
    LogCopyStatus status = copies.status();
    assertThat(status.usedBytes()).isEqualTo(90);
    assertThat(status.capBytes()).isEqualTo(100);
    assertThat(status.notCopiedBytes()).isEqualTo(70);
    assertThat(status.cutRuns()).isEqualTo(1);
    assertThat(warnings).hasSize(1);
    assertThat(warnings.get(0)).startsWith("event=log_copy_full").contains("run_id=run-b", "cap_bytes=100",
        "VARROA_LOG_SPOOL_BYTES");
  }

  @Test
  void aCutCopyStaysCutAfterARestartSoTheStoredLogIsAPrefix() throws Exception {
    Path dir = LogCopies.directoryOf(home);
    LogCopies before = LogCopies.open(dir, 10);
    LogCopy copy = before.copy("run-a", "team/a");
    copy.append(bytes(8), 0, 8);
    copy.append(bytes(8), 0, 8);
    before.close();

    LogCopies after = LogCopies.open(dir, 1 << 20);
    LogCopy resumed = after.copy("run-a", "team/a");
    resumed.append(bytes(4), 0, 4);

    assertThat(resumed.cut()).isTrue();
    assertThat(resumed.length()).isEqualTo(8);
    assertThat(after.status().notCopiedBytes()).isEqualTo(4);
  }

  @Test
  void namesFilesOfUnusualRunIdsSafely() throws Exception {
    LogCopies copies = LogCopies.open(LogCopies.directoryOf(home), 1 << 20);
    copies.copy("../team/app#3", "team/app").append(bytes(3), 0, 3);

    try (var files = Files.list(LogCopies.directoryOf(home))) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .allMatch(name -> name.matches("x[0-9a-f]+\\.(log|state)")).hasSize(2);
    }
    assertThat(LogCopies.open(LogCopies.directoryOf(home), 1 << 20).runIds()).containsExactly("../team/app#3");
  }

  static byte[] bytes(int count) {
    byte[] bytes = new byte[count];
    for (int i = 0; i < count; i++) {
      bytes[i] = (byte) ('a' + i % 26);
    }
    return bytes;
  }
}
