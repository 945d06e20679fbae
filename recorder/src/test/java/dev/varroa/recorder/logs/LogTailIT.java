package dev.varroa.recorder.logs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.v1.LogAppended;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import io.nats.client.Connection;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class LogTailIT {

  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();
  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  @Test
  void aTailHandsOverWhatIsStoredThenEachAnnouncedLineInOrderUntilTheLogIsComplete() throws Exception {
    PostgresLogStoreIT.migrate(POSTGRES.server());
    LogKey key = LogStoreContract.newRun();
    ControllerIdentity controller = new ControllerIdentity(key.namespace(), key.controller(), "uid-1");
    String subject = BusNames.logAppended(key.cluster(), controller, key.runId());
    try (LogStore store = LogStores.open(PostgresLogStoreIT.settings(POSTGRES.server())).orElseThrow();
        Connection nats = NATS.server().connect();
        LogReader reader = new LogReader(store, nats)) {
      byte[] first = "Started by user admin\n".getBytes(StandardCharsets.UTF_8);
      store.write(key, 0, first, false);
      ByteArrayOutputStream seen = new ByteArrayOutputStream();
      AtomicLong completeAt = new AtomicLong(-1);
      AtomicLong lineArrivedNanos = new AtomicLong();
      LogTail tail = reader.tail(key, 0, new LogTail.Listener() {
        @Override
        public void bytes(long offset, byte[] data) {
          assertThat(offset).isEqualTo(seen.size());
          seen.write(data, 0, data.length);
          lineArrivedNanos.set(System.nanoTime());
        }

        @Override
        public void complete(long totalBytes) {
          completeAt.set(totalBytes);
        }
      });
      await().atMost(Duration.ofSeconds(10)).until(() -> tail.position() == first.length);

      byte[] line = "[Pipeline] echo hello\n".getBytes(StandardCharsets.UTF_8);
      long appendedNanos = System.nanoTime();
      LogExtent after = store.write(key, first.length, line, true);
      nats.publish(subject, LogAppended.newBuilder().setController(controller.toRef()).setCluster(key.cluster())
          .setRunId(key.runId()).setOffset(first.length).setStoredThrough(after.storedThrough())
          .setComplete(after.complete()).build().toByteArray());

      await().atMost(Duration.ofSeconds(10)).until(() -> completeAt.get() >= 0);
      // complete() follows the last bytes() on the same reader thread, so seen is whole here.
      assertThat(seen.toString(StandardCharsets.UTF_8)).isEqualTo("Started by user admin\n[Pipeline] echo hello\n");
      assertThat(completeAt.get()).isEqualTo(first.length + line.length);
      assertThat(tail.isOpen()).isFalse();
      System.out.println("figure: log tail saw an appended line " + (lineArrivedNanos.get() - appendedNanos) / 1_000_000
          + " ms after the write started (postgres tier, core NATS)");
    }
  }
}
