package dev.varroa.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.testfixtures.nats.NatsServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.nats.client.Connection;
import io.nats.client.api.RetentionPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class BusTopologyIT {

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  @Test
  void createsBucketsAndTheCommandQueueOnceWhoeverStartsFirst() throws Exception {
    NatsServer server = NATS.server();
    try (Connection operator = server.connect(); Connection gateway = server.connect()) {
      BusTopology.ensure(operator);
      BusTopology.ensure(gateway);
      assertThat(operator.keyValueManagement().getBucketNames()).contains(
          BusNames.BOOTSTRAP_TOKENS_BUCKET, BusNames.MITE_ROUTES_BUCKET, BusNames.GATEWAYS_BUCKET);
      assertThat(operator.jetStreamManagement().getStreamInfo(BusNames.COMMANDS_STREAM).getConfiguration()
          .getRetentionPolicy()).isEqualTo(RetentionPolicy.WorkQueue);
      assertThat(operator.jetStreamManagement().getStreamInfo(BusNames.BUILDS_STREAM).getConfiguration()
          .getRetentionPolicy()).isEqualTo(RetentionPolicy.Interest);
      assertThat(operator.jetStreamManagement().getConsumerNames(BusNames.BUILDS_STREAM))
          .containsExactly(BusNames.RECORDER_CONSUMER);
    }
  }
}
