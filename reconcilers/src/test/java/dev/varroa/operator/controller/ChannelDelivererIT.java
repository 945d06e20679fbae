package dev.varroa.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.gateway.GatewaySettings;
import dev.varroa.operator.channel.BootstrapTokenIssuer;
import dev.varroa.operator.channel.ControlChannel;
import dev.varroa.operator.channel.JenkinsTokenIssuer;
import dev.varroa.operator.hibernation.PlayedGateway;
import dev.varroa.operator.render.ControllerObjects;
import dev.varroa.operator.render.RenderFixtures;
import dev.varroa.operator.render.RenderInput;
import dev.varroa.operator.render.resolve.InstallationDefaults;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.mite.v1.ObservedState;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The delivery step alone (docs/controllers.md, "Status: who writes what": delivery → the mite observation, a
 * recheck, or a block naming the fix) on a real API server and a real NATS, with a played gateway for the mite's
 * stream: what {@link ChannelDeliverer#deliver} returns. ControlChannelIT runs the whole channel with a real mite.
 */
@WithKubeApiServer
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChannelDelivererIT {
  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  private static final String NAMESPACE = "delivery";
  private static final Duration DEADLINE = Duration.ofSeconds(30);
  /** Near the real time: the pushed command's deadline is taken from it. */
  private final Clock clock = Clock.fixed(Instant.now(), ZoneOffset.UTC);
  private KubernetesClient client;
  private ControlChannel channel;
  private PlayedGateway gateway;
  private ChannelDeliverer deliverer;

  @BeforeAll
  void start(KubeApiServer kube) throws Exception {
    client = kube.client();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .create();
    gateway = new PlayedGateway(NATS.server().connect());
    channel = new ControlChannel(NATS.server().connect(), GatewaySettings.DEFAULT_CLUSTER_NAME, "127.0.0.1:9090", "",
        JenkinsTokenIssuer.generate(), Clock.systemUTC());
    deliverer = new ChannelDeliverer(channel, new MiteDelivery(channel, clock, id -> { }), clock);
  }

  @AfterAll
  void stop() throws Exception {
    channel.close();
    gateway.close();
  }

  @Test
  void mintsATokenIntoItsSecretForAMiteWithoutAStreamAndLooksAgainWhenItExpires() {
    Controller controller = create("new-mite", "{}");
    Pass pass = new Pass(controller);

    ChannelDeliverer.Delivered delivered = pass.deliver();

    assertThat(delivered.blocked()).isEmpty();
    assertThat(delivered.mite().status().connected).isFalse();
    assertThat(delivered.mite().lastApply()).isEmpty();
    assertThat(delivered.recheck()).as("an unused token is replaced at its expiry")
        .contains(BootstrapTokenIssuer.BOOTSTRAP_TOKEN_LIFETIME.plusSeconds(1));
    Secret token = client.secrets().inNamespace(NAMESPACE).withName(pass.input.names().miteTokenSecret()).get();
    String digest = token.getMetadata().getAnnotations().get(MiteTokenSecret.DIGEST_ANNOTATION);
    assertThat(digest).isNotBlank();

    ChannelDeliverer.Delivered again = pass.deliver();

    assertThat(again.blocked()).isEmpty();
    assertThat(again.recheck()).contains(BootstrapTokenIssuer.BOOTSTRAP_TOKEN_LIFETIME.plusSeconds(1));
    assertThat(client.secrets().inNamespace(NAMESPACE).withName(pass.input.names().miteTokenSecret()).get()
        .getMetadata().getAnnotations()).as("the unused token still holds: none minted").containsEntry(
        MiteTokenSecret.DIGEST_ANNOTATION, digest);
  }

  @Test
  void blocksNamingTheSecretAndTheFixWhenTheTokenSecretExistsAndIsNotVarroas() {
    Controller controller = create("taken-token", "{}");
    Pass pass = new Pass(controller);
    String name = pass.input.names().miteTokenSecret();
    client.resource(new SecretBuilder().withNewMetadata().withName(name).withNamespace(NAMESPACE).endMetadata()
        .withStringData(Map.of("token", "someone else's")).build()).create();

    ChannelDeliverer.Delivered delivered = pass.deliver();

    assertThat(delivered.blocked()).get().asString()
        .contains("Secret " + NAMESPACE + "/" + name + " exists and was not created by Varroa")
        .contains("fix: rename or delete that Secret, or rename the Controller");
    assertThat(delivered.mite()).isNull();
    assertThat(delivered.recheck()).as("the Secret is watched: its change starts the next pass").isEmpty();
    assertThat(client.secrets().inNamespace(NAMESPACE).withName(name).get().getMetadata().getAnnotations())
        .as("left as it was").isNullOrEmpty();
  }

  @Test
  void blocksNamingTheFieldAndTheFixWhenAConnectedMitesSecretOrKeyIsMissing() throws Exception {
    Controller controller = create("missing-secret", """
        secrets:
          - {name: GITHUB_TOKEN, secretKeyRef: {name: team-github, key: token}}
        """);
    Pass pass = new Pass(controller);
    connect(controller);

    assertThat(pass.deliver().blocked()).get().asString()
        .contains("spec.secrets[0] (GITHUB_TOKEN) names Secret team-github, which does not exist in namespace "
            + NAMESPACE)
        .contains("fix: create it, or correct spec.secrets[0] (GITHUB_TOKEN).secretKeyRef.name");

    client.resource(new SecretBuilder().withNewMetadata().withName("team-github").withNamespace(NAMESPACE)
        .endMetadata().withStringData(Map.of("password", "not the key")).build()).create();
    ChannelDeliverer.Delivered wrongKey = pass.deliver();

    assertThat(wrongKey.blocked()).get().asString()
        .contains("names key token of Secret team-github, which has no such key")
        .contains("fix: add it, or correct spec.secrets[0] (GITHUB_TOKEN).secretKeyRef.key");
    assertThat(wrongKey.mite()).isNull();
  }

  @Test
  void reportsAConnectedMiteThenTheResultOfTheDesiredStatePushedToIt() throws Exception {
    client.resource(new SecretBuilder().withNewMetadata().withName("team-token").withNamespace(NAMESPACE)
        .endMetadata().withStringData(Map.of("token", "s3cret")).build()).create();
    Controller controller = create("connected", """
        secrets:
          - {name: GITHUB_TOKEN, secretKeyRef: {name: team-token, key: token}}
        """);
    Pass pass = new Pass(controller);
    connect(controller);

    ChannelDeliverer.Delivered delivered = pass.deliver();

    assertThat(delivered.blocked()).isEmpty();
    assertThat(delivered.recheck()).as("a connected mite needs no token").isEmpty();
    assertThat(delivered.mite().status().connected).isTrue();
    assertThat(delivered.mite().status().gateway).isEqualTo(PlayedGateway.ID);
    assertThat(client.secrets().inNamespace(NAMESPACE).withName(pass.input.names().miteTokenSecret()).get())
        .as("no token Secret for a mite with a stream").isNull();
    await().atMost(DEADLINE).untilAsserted(() -> assertThat(pass.deliver().mite().lastApply()).get()
        .satisfies(apply -> {
          assertThat(apply.succeeded).isTrue();
          assertThat(apply.bundleDigest).isEqualTo(pass.inputs.rendered().digest());
        }));
  }

  /** One Controller's inputs and render, delivered as a pass would. */
  private final class Pass {
    final Controller controller;
    final ControllerInputs inputs;
    final RenderInput input;
    final List<HasMetadata> objects;

    Pass(Controller controller) {
      this.controller = controller;
      JenkinsVersionProfile profile = RenderFixtures.profile();
      inputs = new ControllerInputs(RenderFixtures.resolved(controller), profile, "team",
          RenderFixtures.bundle(RenderFixtures.JCASC, profile), Optional.empty(), List.of(), InstallationDefaults.none(),
          Optional.empty());
      input = inputs.renderInput(Optional.of(channel.endpoint()));
      objects = ControllerObjects.render(input);
    }

    ChannelDeliverer.Delivered deliver() {
      return deliverer.deliver(client, new ApiServerObjects(client), controller, inputs, input, objects, null,
          new ControllerStatus());
    }
  }

  private Controller create(String name, String specYaml) {
    return ControllerManifests.create(client, NAMESPACE, name, specYaml);
  }

  /** The mite's stream opens at the played gateway; the channel reads it from the routes bucket. */
  private void connect(Controller controller) throws Exception {
    ControllerIdentity id = new ControllerIdentity(NAMESPACE, controller.getMetadata().getName(),
        controller.getMetadata().getUid());
    gateway.connect(id, clock.instant(), ObservedState.newBuilder().setJenkinsReachable(true).build());
    await().atMost(DEADLINE).until(() -> channel.routes().live(id).isPresent());
  }
}
