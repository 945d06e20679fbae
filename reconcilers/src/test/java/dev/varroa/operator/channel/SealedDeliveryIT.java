package dev.varroa.operator.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.gateway.Gateway;
import dev.varroa.gateway.GatewaySettings;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.operator.OperatorSettings;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.operator.render.PodVolumes;
import dev.varroa.plugin.auth.JenkinsTokenVerifier;
import dev.varroa.plugin.auth.PublicKeyRing;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.ProtocolVersion;
import dev.varroa.protocol.bus.v1.GatewayCommand;
import dev.varroa.protocol.bus.v1.JenkinsTokenGrant;
import dev.varroa.protocol.bus.v1.JenkinsTokenGrantRequest;
import dev.varroa.protocol.bus.v1.MiteRoute;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.CommandResult;
import dev.varroa.protocol.mite.v1.DesiredState;
import dev.varroa.protocol.mite.v1.File;
import dev.varroa.protocol.seal.OpeningKey;
import dev.varroa.protocol.seal.SealedCommands;
import dev.varroa.protocol.seal.SealingCertificate;
import dev.varroa.protocol.seal.SecretSeal;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.StarterProfile;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerProcess;
import com.nimbusds.jose.JWEObject;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.nats.client.api.KeyValueEntry;
import io.nats.client.api.KeyValueOperation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.commons.io.output.TeeOutputStream;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Credentials sealed to the mite (docs/security.md, "Sealing: what each party sees"), end to end: a real nats-server,
 * gateway, operator on a real API server, and the mite as its own process. A privileged subscriber to {@code >}
 * records every message on the bus; the tenant's secret and the Jenkins tokens the mite presented are found in none
 * of it, nor in JetStream's files or any process log, while the mite applies the secret. A mite whose key changed
 * (a new pod) gets the next command sealed to its new key and refuses one sealed to its old key.
 */
@WithKubeApiServer
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SealedDeliveryIT {
  private static final Duration DEADLINE = Duration.ofSeconds(90);
  private static final KubernetesSerialization YAML = new KubernetesSerialization();
  private static final String NAMESPACE = "sealed";
  private static final String CLUSTER = GatewaySettings.DEFAULT_CLUSTER_NAME;
  /** A runner's SSH key as a tenant keeps it in a Secret. */
  private static final String SECRET_VALUE = "ssh-ed25519 AAAAC3-runner-key-only-the-mite-may-read-0xFACADE";

  private final ByteArrayOutputStream inProcessLog = new ByteArrayOutputStream();
  private final List<Message> traffic = new CopyOnWriteArrayList<>();
  private final Set<String> tokensJenkinsSaw = ConcurrentHashMap.newKeySet();
  private final List<PodPlayer> pods = new ArrayList<>();
  private PrintStream originalErr;
  private PrintStream originalOut;
  private NatsServerProcess nats;
  private Connection tap;
  private Gateway gateway;
  private VarroaOperator operator;
  private CertificateAuthority ca;
  private Path work;

  @BeforeAll
  void start(KubeApiServer kube, @TempDir Path dir) throws Exception {
    work = dir;
    originalErr = System.err;
    originalOut = System.out;
    // the gateway and the operator run in this JVM and log to the console: keep a copy to scan
    System.setErr(new PrintStream(new TeeOutputStream(originalErr, inProcessLog), true, StandardCharsets.UTF_8));
    System.setOut(new PrintStream(new TeeOutputStream(originalOut, inProcessLog), true, StandardCharsets.UTF_8));
    nats = NatsServerProcess.start();
    // the server has no users: this connection sees every subject, JetStream's API, KV writes and reply inboxes
    tap = nats.value().connect();
    Dispatcher everything = tap.createDispatcher(traffic::add);
    everything.subscribe(">");
    tap.flush(Duration.ofSeconds(5));

    KubernetesClient client = kube.client();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .create();
    StarterProfile.install(client, null);
    client.resource(new SecretBuilder().withNewMetadata().withName("runner-ssh").withNamespace(NAMESPACE).endMetadata()
        .withStringData(Map.of("id_ed25519", SECRET_VALUE)).build()).create();
    ca = CertificateAuthority.createFiles(dir.resolve("ca.crt"), dir.resolve("ca.key"));
    gateway = Gateway.start(GatewaySettings.of("gw-seal", nats.value().url(), dir.resolve("ca.crt"),
        dir.resolve("ca.key")).withListen("127.0.0.1", 0).withClusterName(CLUSTER));
    ControlChannel channel = new ControlChannel(nats.value().connect(), CLUSTER, "127.0.0.1:" + gateway.port(),
        ca.certificatePem(), JenkinsTokenIssuer.generate(), Clock.systemUTC());
    operator = new VarroaOperator(client, OperatorSettings.defaults(dir.resolve("cache")), channel);
    operator.start();
  }

  @AfterAll
  void stop() throws Exception {
    for (PodPlayer pod : pods) {
      pod.close();
    }
    if (operator != null) {
      operator.close();
    }
    if (gateway != null) {
      gateway.close();
    }
    if (tap != null) {
      tap.close();
    }
    if (nats != null) {
      nats.close();
    }
    System.setErr(originalErr);
    System.setOut(originalOut);
  }

  @Test
  void gatewayAndNatsSeeCiphertextOnlyWhileTheMiteAppliesTheSecret(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    Controller controller = controller(client, "app");
    PodPlayer pod = play(client, controller, "app");
    Path secretFile = pod.secretsDirectory().resolve("RUNNER_SSH_KEY");

    await().atMost(DEADLINE).until(() -> Files.exists(secretFile)
        && Files.readString(secretFile).equals(SECRET_VALUE));
    awaitStatus(client, "app", s -> s.lastApplyResult != null && Boolean.TRUE.equals(s.lastApplyResult.succeeded));
    await().atMost(DEADLINE).until(() -> !tokensJenkinsSaw.isEmpty());

    // the route binds the stream's key to the controller: the CA signed it for this identity
    ControllerIdentity id = identity(controller);
    MiteRoute route = route(id);
    assertThat(route.getProtocolVersion()).isEqualTo(ProtocolVersion.SEALED_SECRETS);
    ECPublicKey miteKey = SealingCertificate.verify(route.getCertificatePem(), ca.certificatePem(), id, Instant.now(),
        "the route");
    // every desired state that crossed NATS was sealed to that key, the Jenkins token inside the seal
    List<Command> pushed = desiredStatesSentTo(id);
    assertThat(pushed).isNotEmpty().allSatisfy(command -> {
      DesiredState state = command.getDesiredState();
      assertThat(state.getSecretFilesList()).isEmpty();
      assertThat(state.hasJenkinsToken()).isFalse();
      assertThat(recipient(state.getSealedSecrets().getJwe())).isEqualTo(SecretSeal.keyId(miteKey));
    });
    byte[] everything = trafficBytes();
    // the scan finds what travels readable: the desired state's digest and its JCasC
    assertThat(contains(everything, pushed.get(0).getDesiredState().getBundleDigest())).isTrue();
    assertThat(contains(everything, pushed.get(0).getDesiredState().getJcascFiles(0).getContent().toStringUtf8()))
        .isTrue();

    List<String> plaintexts = new ArrayList<>(tokensJenkinsSaw);
    plaintexts.add(SECRET_VALUE);
    for (String plaintext : plaintexts) {
      assertThat(contains(everything, plaintext)).as("NATS traffic holds a plaintext").isFalse();
      assertThat(filesContaining(nats.value().storeDirectory(), plaintext)).as("JetStream and KV files").isEmpty();
      assertThat(nats.log()).doesNotContain(plaintext);
      assertThat(inProcessLog.toString(StandardCharsets.UTF_8)).as("gateway and operator logs")
          .contains("event=route_claimed").doesNotContain(plaintext);
      assertThat(Files.readString(work.resolve("mite-app.log"))).as("the mite's log")
          .contains("event=command_received").doesNotContain(plaintext);
    }
  }

  @Test
  void aMiteWhoseKeyChangedGetsTheNextCommandSealedToItsNewKeyAndRefusesOneSealedToItsOldKey(KubeApiServer kube)
      throws Exception {
    KubernetesClient client = kube.client();
    Controller controller = controller(client, "restarted");
    ControllerIdentity id = identity(controller);
    PodPlayer first = play(client, controller, "restarted");
    await().atMost(DEADLINE).until(() -> secretApplied(first));
    MiteRoute firstRoute = route(id);
    ECPublicKey oldKey = SealingCertificate.verify(firstRoute.getCertificatePem(), ca.certificatePem(), id,
        Instant.now(), "the first route");

    // the pod goes, and with it the in-memory identity; a new pod registers with a new key
    String podName = first.pod().getMetadata().getName();
    first.close();
    client.pods().inNamespace(NAMESPACE).withName(podName).withGracePeriod(0).delete();
    await().atMost(DEADLINE).until(() -> client.pods().inNamespace(NAMESPACE).withName(podName).get() == null);
    // the gateway released the old stream's route: no later push can be sealed to the old key
    await().atMost(DEADLINE).until(() -> {
      KeyValueEntry entry = tap.keyValue(BusNames.MITE_ROUTES_BUCKET).get(id.routeKey());
      return entry == null || entry.getOperation() != KeyValueOperation.PUT;
    });
    int sentBefore = desiredStatesSentTo(id).size();
    PodPlayer second = play(client, controller, "restarted-again");
    await().atMost(DEADLINE).until(() -> {
      // the kubelet syncs the token Secret the operator re-minted for the new pod
      second.refreshVolumes();
      return secretApplied(second);
    });

    MiteRoute secondRoute = route(id);
    ECPublicKey newKey = SealingCertificate.verify(secondRoute.getCertificatePem(), ca.certificatePem(), id,
        Instant.now(), "the second route");
    assertThat(SecretSeal.keyId(newKey)).isNotEqualTo(SecretSeal.keyId(oldKey));
    List<Command> pushed = desiredStatesSentTo(id);
    assertThat(pushed.subList(sentBefore, pushed.size())).isNotEmpty()
        .allSatisfy(c -> assertThat(recipient(c.getDesiredState().getSealedSecrets().getJwe()))
            .isEqualTo(SecretSeal.keyId(newKey)));

    // a command sealed to the old key (read from a stale route) is refused, naming both keys, and changes nothing
    Command stale = SealedCommands.seal(Command.newBuilder().setCommandId(UUID.randomUUID().toString())
        .setDeadlineEpochMillis(Instant.now().plus(Duration.ofMinutes(1)).toEpochMilli())
        .setDesiredState(DesiredState.newBuilder().setBundleDigest("sha256:stale").addSecretFiles(File.newBuilder()
            .setPath("RUNNER_SSH_KEY").setContent(ByteString.copyFromUtf8("a value sealed to the old key"))))
        .build(), oldKey);
    Message reply = tap.request(BusNames.gatewayCommands(CLUSTER, secondRoute.getGatewayId()),
        GatewayCommand.newBuilder().setController(id.toRef()).setCommand(stale).build().toByteArray(), DEADLINE);
    CommandResult refused = CommandResult.parseFrom(reply.getData());
    assertThat(refused.getOutcome()).isEqualTo(CommandResult.Outcome.SEALED_TO_OTHER_KEY);
    assertThat(refused.getMessage()).contains(SecretSeal.keyId(oldKey), SecretSeal.keyId(newKey),
        "nothing was applied");
    assertThat(Files.readString(second.secretsDirectory().resolve("RUNNER_SSH_KEY"))).isEqualTo(SECRET_VALUE);
  }

  @Test
  void aJenkinsTokenGrantIsSealedToTheAskingStreamsKeyAndRefusedForACertificateTheCaDidNotSign(KubeApiServer kube)
      throws Exception {
    KubernetesClient client = kube.client();
    Controller controller = controller(client, "granted");
    ControllerIdentity id = identity(controller);
    PodPlayer pod = play(client, controller, "granted");
    await().atMost(DEADLINE).until(() -> secretApplied(pod));
    MiteRoute route = route(id);

    // asked as the gateway asks for a mite whose token runs out: naming the stream's certificate
    JenkinsTokenGrant grant = JenkinsTokenGrant.parseFrom(tap.request(BusNames.jenkinsTokenRequests(CLUSTER),
        JenkinsTokenGrantRequest.newBuilder().setController(id.toRef()).setCertificatePem(route.getCertificatePem())
            .setProtocolVersion(route.getProtocolVersion()).build().toByteArray(), DEADLINE).getData());

    assertThat(grant.getRefusal()).isEmpty();
    assertThat(grant.getToken().getJwt()).isEmpty();
    // the mite's key, from its identity folder (the pod's memory volume), opens it
    OpeningKey miteKey = OpeningKey.of(SealingCertificate.verify(route.getCertificatePem(), ca.certificatePem(), id,
        Instant.now(), "the route"), privateKey(work.resolve("pods").resolve("granted").resolve("identity")));
    String jwt = SealedCommands.open(grant.getToken(), List.of(miteKey)).getJwt();
    assertThat(jwt.split("\\.")).hasSize(3);
    assertThat(contains(trafficBytes(), jwt)).isFalse();

    // a certificate for the same controller from a CA the operator does not hold gets no token, sealed or not
    CertificateAuthority stranger = CertificateAuthority.generate("not the Varroa CA", Duration.ofDays(1));
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    KeyPair forgedKey = generator.generateKeyPair();
    String forged = stranger.signClientCertificate(new JcaPKCS10CertificationRequestBuilder(
        new X500Name("CN=forged"), forgedKey.getPublic()).build(new JcaContentSignerBuilder("SHA256withECDSA")
        .build(forgedKey.getPrivate())), id, Instant.now()).certificateChainPem();
    JenkinsTokenGrant refused = JenkinsTokenGrant.parseFrom(tap.request(BusNames.jenkinsTokenRequests(CLUSTER),
        JenkinsTokenGrantRequest.newBuilder().setController(id.toRef()).setCertificatePem(forged)
            .setProtocolVersion(ProtocolVersion.SEALED_SECRETS).build().toByteArray(), DEADLINE).getData());
    assertThat(refused.hasToken()).isFalse();
    assertThat(refused.getRefusal()).contains("is not signed by the Varroa CA");
  }

  private static PrivateKey privateKey(Path identityDirectory) throws Exception {
    String pem = Files.readString(identityDirectory.resolve("client.key"), StandardCharsets.US_ASCII);
    byte[] der = Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
    return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(der));
  }

  private PodPlayer play(KubernetesClient client, Controller controller, String name) throws Exception {
    Path root = work.resolve("pods").resolve(name);
    PodPlayer pod = new PodPlayer(client, controller, root);
    pods.add(pod);
    await().atMost(DEADLINE).until(pod::podCanStart);
    pod.start(PodPlayer.MiteRunner.process(System.getProperty("java.class.path"), work.resolve("mite-" + name + ".log")),
        p -> {
          // the realm's own verifier, noting each token the mite presented: the plaintexts to look for
          JenkinsTokenVerifier verifier = new JenkinsTokenVerifier(
              new PublicKeyRing(root.resolve("jwt").resolve(PodVolumes.JWT_PUBLIC_KEY_FILE), Clock.systemUTC()),
              new dev.varroa.plugin.auth.ControllerIdentity(NAMESPACE, controller.getMetadata().getName(),
                  controller.getMetadata().getUid()), Clock.systemUTC());
          p.jenkins().bearerTokenAccepted(token -> {
            tokensJenkinsSaw.add(token);
            return verifier.verify(token).accepted();
          });
        });
    return pod;
  }

  private static boolean secretApplied(PodPlayer pod) throws IOException {
    Path file = pod.secretsDirectory().resolve("RUNNER_SSH_KEY");
    return Files.exists(file) && Files.readString(file).equals(SECRET_VALUE);
  }

  private static Controller controller(KubernetesClient client, String name) {
    return client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: %s, namespace: %s}
        spec:
          secrets:
            - {name: RUNNER_SSH_KEY, secretKeyRef: {name: runner-ssh, key: id_ed25519}}
        """.formatted(name, NAMESPACE), Controller.class)).create();
  }

  private static ControllerIdentity identity(Controller controller) {
    return new ControllerIdentity(controller.getMetadata().getNamespace(), controller.getMetadata().getName(),
        controller.getMetadata().getUid());
  }

  private MiteRoute route(ControllerIdentity id) throws Exception {
    KeyValueEntry entry = await().atMost(DEADLINE).until(() -> tap.keyValue(BusNames.MITE_ROUTES_BUCKET)
        .get(id.routeKey()), e -> e != null && e.getValue() != null && e.getValue().length > 0);
    return MiteRoute.parseFrom(entry.getValue());
  }

  /** The desired-state commands the operator sent this controller's gateway, as the bus carried them. */
  private List<Command> desiredStatesSentTo(ControllerIdentity id) {
    List<Command> commands = new ArrayList<>();
    for (Message message : traffic) {
      if (!message.getSubject().startsWith("varroa.gateway.") || !message.getSubject().endsWith(".commands")) {
        continue;
      }
      try {
        GatewayCommand command = GatewayCommand.parseFrom(message.getData());
        if (ControllerIdentity.of(command.getController()).equals(id) && command.getCommand().hasDesiredState()) {
          commands.add(command.getCommand());
        }
      } catch (InvalidProtocolBufferException | IllegalArgumentException notACommand) {
        // another message on a matching subject
      }
    }
    return commands;
  }

  private static String recipient(String jwe) {
    try {
      return JWEObject.parse(jwe).getHeader().getKeyID();
    } catch (ParseException e) {
      throw new AssertionError("not a JWE: " + e.getMessage(), e);
    }
  }

  private byte[] trafficBytes() {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (Message message : traffic) {
      all.writeBytes(message.getSubject().getBytes(StandardCharsets.UTF_8));
      if (message.getHeaders() != null) {
        message.getHeaders().entrySet().forEach(h -> all.writeBytes((h.getKey() + h.getValue())
            .getBytes(StandardCharsets.UTF_8)));
      }
      if (message.getData() != null) {
        all.writeBytes(message.getData());
      }
    }
    return all.toByteArray();
  }

  private static Controller awaitStatus(KubernetesClient client, String name, Predicate<ControllerStatus> wanted) {
    return await().atMost(DEADLINE).until(() -> client.resources(Controller.class).inNamespace(NAMESPACE)
        .withName(name).get(), c -> c.getStatus() != null && wanted.test(c.getStatus()));
  }

  private static List<Path> filesContaining(Path directory, String needle) throws IOException {
    try (Stream<Path> files = Files.walk(directory)) {
      return files.filter(Files::isRegularFile).filter(f -> {
        try {
          return contains(Files.readAllBytes(f), needle);
        } catch (IOException vanished) {
          // nats-server compacts and removes block files while they are read
          return false;
        }
      }).toList();
    }
  }

  private static boolean contains(byte[] haystack, String needle) {
    byte[] bytes = needle.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i + bytes.length <= haystack.length; i++) {
      if (Arrays.equals(haystack, i, i + bytes.length, bytes, 0, bytes.length)) {
        return true;
      }
    }
    return false;
  }
}
