package dev.varroa.operator.channel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.nats.client.Connection;
import io.nats.client.KeyValue;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The operator's record of live Controllers on a real NATS KV bucket, as the gateways read it. */
class LiveControllersIT {
  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  @Test
  void recordsOncePerUidAndWritesAgainAfterTheRewriteAge() throws Exception {
    AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-12-03T10:00:00Z"));
    try (Connection nats = NATS.server().connect()) {
      BusTopology.ensure(nats);
      KeyValue bucket = nats.keyValue(BusNames.LIVE_CONTROLLERS_BUCKET);
      LiveControllers live = new LiveControllers(bucket, "core", clockOf(now));
      ControllerIdentity controller = new ControllerIdentity("ci", "once-" + UUID.randomUUID(), "uid-1");
      String key = BusNames.liveControllerKey("core", controller);

      live.record(controller);
      long first = bucket.get(key).getRevision();
      live.record(controller);
      assertThat(bucket.get(key).getRevision()).as("a second pass writes nothing").isEqualTo(first);

      // the NATS store lost the record meanwhile: a pass after the rewrite age writes it again
      bucket.delete(key);
      now.set(now.get().plus(LiveControllers.REWRITE_AFTER));
      live.record(controller);
      assertThat(new String(bucket.get(key).getValue(), StandardCharsets.UTF_8)).isEqualTo("uid-1");
    }
  }

  @Test
  void forgetsADeletedControllerButKeepsTheRecordOfItsSuccessorOfTheSameName() throws Exception {
    try (Connection nats = NATS.server().connect()) {
      BusTopology.ensure(nats);
      KeyValue bucket = nats.keyValue(BusNames.LIVE_CONTROLLERS_BUCKET);
      LiveControllers live = new LiveControllers(bucket, "core", Clock.systemUTC());
      String name = "reborn-" + UUID.randomUUID();
      ControllerIdentity old = new ControllerIdentity("ci", name, "uid-old");
      ControllerIdentity successor = new ControllerIdentity("ci", name, "uid-new");
      String key = BusNames.liveControllerKey("core", old);

      live.record(old);
      live.record(successor);
      live.forget(old);
      assertThat(new String(bucket.get(key).getValue(), StandardCharsets.UTF_8)).isEqualTo("uid-new");

      live.forget(successor);
      assertThat(bucket.get(key)).isNull();
      // another cluster's record of the same namespace and name is another key
      assertThat(BusNames.liveControllerKey("member-b", old)).isNotEqualTo(key);
    }
  }

  private static Clock clockOf(AtomicReference<Instant> now) {
    return new Clock() {
      @Override
      public ZoneOffset getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(java.time.ZoneId zone) {
        return this;
      }

      @Override
      public Instant instant() {
        return now.get();
      }
    };
  }
}
