package dev.varroa.gateway;

import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.ProtocolVersion;
import dev.varroa.protocol.mite.v1.RegisterRequest;
import dev.varroa.protocol.mite.v1.RegisterResponse;
import dev.varroa.protocol.mite.v1.RegistrationGrpc;
import dev.varroa.protocol.seal.OpeningKey;
import io.grpc.ManagedChannel;
import com.google.protobuf.ByteString;
import java.util.concurrent.TimeUnit;

/** A registered mite as the tests play it: its identity, key and issued certificate chain. */
public record TestMite(ControllerIdentity identity, MiteKeys keys, String chainPem) {

  /** Registers through the gateway with a fresh bootstrap token, exactly as a mite at pod start. */
  public static TestMite enroll(Gateway gateway, CertificateAuthority ca, TokenIssuer tokens, ControllerIdentity identity)
      throws Exception {
    MiteKeys keys = MiteKeys.generate();
    String token = tokens.issue(identity);
    tokens.recordLive(gateway.clusterName(), identity);
    ManagedChannel channel = Channels.serverTls(gateway.port(), ca.certificatePem());
    try {
      RegisterResponse response = RegistrationGrpc.newBlockingStub(channel)
          .withDeadlineAfter(10, TimeUnit.SECONDS)
          .register(RegisterRequest.newBuilder()
              .setProtocolVersion(ProtocolVersion.CURRENT)
              .setBootstrapToken(token)
              .setController(identity.toRef())
              .setCsrDer(ByteString.copyFrom(keys.csrDer()))
              .setMiteVersion("test-mite")
              .build());
      return new TestMite(identity, keys, response.getCertificateChainPem());
    } finally {
      channel.shutdownNow();
    }
  }

  /** The key the operator seals this mite's secrets to, with its private half: what the real mite opens them with. */
  public OpeningKey openingKey() {
    return OpeningKey.of(keys.keys().getPublic(), keys.keys().getPrivate());
  }

  /** Opens MiteChannel/Connect to this gateway with the mite's certificate; no message sent yet. */
  public MiteStream connect(Gateway gateway, CertificateAuthority ca) {
    return MiteStream.open(Channels.mutualTls(gateway.port(), ca.certificatePem(), chainPem, keys.privateKeyPem()));
  }
}
