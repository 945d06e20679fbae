package dev.varroa.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.gateway.stream.MiteActivity;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.activity.v1.ActivityEvent;
import dev.varroa.protocol.mite.v1.InstalledPlugin;
import dev.varroa.protocol.mite.v1.MiteMessage;
import dev.varroa.protocol.mite.v1.ObservedState;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The gateway's activity: its start, mite streams opening and ending, Jenkins' version and plugins changing. */
class MiteActivityIT {

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  private static final Duration DEADLINE = Duration.ofSeconds(30);

  private static ActivityEvent parse(byte[] data) {
    try {
      return ActivityEvent.parseFrom(data);
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new AssertionError("not an ActivityEvent on an activity subject", e);
    }
  }

  private static List<ActivityEvent> of(List<ActivityEvent> seen, String kind) {
    return seen.stream().filter(e -> e.getKind().equals(kind)).toList();
  }

  private static ObservedState observed(String version, String... plugins) {
    ObservedState.Builder state = ObservedState.newBuilder().setJenkinsReachable(true).setJenkinsVersion(version);
    for (String plugin : plugins) {
      String[] parts = plugin.split(":");
      state.addPlugins(InstalledPlugin.newBuilder().setId(parts[0]).setVersion(parts[1]));
    }
    return state.build();
  }

  @Test
  void publishesStartConnectVersionAndPluginChangesAndDisconnect(@TempDir Path directory) throws Exception {
    CertificateAuthority ca = CertificateAuthority.createFiles(directory.resolve("ca.pem"),
        directory.resolve("ca-key.pem"));
    List<ActivityEvent> seen = new CopyOnWriteArrayList<>();
    try (Connection reader = NATS.server().connect(); Connection operator = NATS.server().connect()) {
      Dispatcher dispatcher = reader.createDispatcher();
      dispatcher.subscribe("activity.eu-1.>", m -> seen.add(parse(m.getData())));
      reader.flush(DEADLINE);
      try (Gateway gateway = Gateway.start(GatewaySettings.of("gw-act", NATS.server().url(),
              directory.resolve("ca.pem"), directory.resolve("ca-key.pem"))
          .withListen("127.0.0.1", 0).withTlsNames(List.of("localhost"), List.of("127.0.0.1"))
          .withClusterName("eu-1"))) {
        await().atMost(DEADLINE).until(() -> !of(seen, MiteActivity.GATEWAY_STARTED).isEmpty());
        assertThat(of(seen, MiteActivity.GATEWAY_STARTED).get(0).getActor()).isEqualTo("gateway/gw-act");

        ControllerIdentity identity = RegistrationIT.newController();
        TestMite mite = TestMite.enroll(gateway, ca, new TokenIssuer(operator), identity);
        try (MiteStream stream = mite.connect(gateway, ca)) {
          stream.hello();
          await().atMost(DEADLINE).until(() -> !of(seen, MiteActivity.CONNECTED).isEmpty());
          ActivityEvent connected = of(seen, MiteActivity.CONNECTED).get(0);
          assertThat(connected.getNamespace()).isEqualTo(identity.namespace());
          assertThat(connected.getController()).isEqualTo(identity.name());
          assertThat(connected.getAttributesMap()).containsEntry("gateway", "gw-act")
              .containsEntry("jenkinsVersion", "2.500").containsEntry("miteVersion", "test-mite");

          stream.send(MiteMessage.newBuilder().setObserved(observed("2.501", "git:5.0", "junit:1.0")).build());
          await().atMost(DEADLINE).until(() -> !of(seen, MiteActivity.VERSION_CHANGED).isEmpty());
          assertThat(of(seen, MiteActivity.VERSION_CHANGED).get(0).getAttributesMap())
              .containsEntry("from", "2.500").containsEntry("to", "2.501");
          // Jenkins down for a moment: it reports nothing, which is neither a downgrade nor an uninstall.
          stream.send(MiteMessage.newBuilder().setObserved(ObservedState.newBuilder().setJenkinsReachable(false))
              .build());
          stream.send(MiteMessage.newBuilder().setObserved(observed("2.501", "git:5.1", "matrix-auth:3.0")).build());
          await().atMost(DEADLINE).until(() -> !of(seen, MiteActivity.PLUGINS_CHANGED).isEmpty());
          assertThat(of(seen, MiteActivity.PLUGINS_CHANGED).get(0).getAttributesMap())
              .containsEntry("added", "matrix-auth:3.0").containsEntry("updated", "git:5.0->5.1")
              .containsEntry("removed", "junit").containsEntry("addedCount", "1");

          stream.completeStream();
          await().atMost(DEADLINE).until(() -> !of(seen, MiteActivity.DISCONNECTED).isEmpty());
        }
        assertThat(of(seen, MiteActivity.VERSION_CHANGED)).hasSize(1);
        assertThat(of(seen, MiteActivity.PLUGINS_CHANGED)).hasSize(1);
        assertThat(of(seen, MiteActivity.CONNECTED)).hasSize(1);
      }
    }
  }
}
