package dev.varroa.operator.channel;

import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.ProtocolVersion;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.JenkinsToken;
import dev.varroa.protocol.seal.SealedCommands;
import dev.varroa.protocol.seal.SealingCertificate;
import java.security.interfaces.ECPublicKey;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Seals what the operator sends a mite to the key of the certificate its stream presents (docs/security.md,
 * "Sealing"), after checking the Varroa CA signed that certificate for that controller. A protocol 1 stream gets the
 * clear fields it understands; a protocol 2 stream gets nothing the operator could not seal.
 */
final class CommandSealer {
  private static final Logger LOG = LoggerFactory.getLogger(CommandSealer.class);

  private final String caCertificatePem;
  private final Clock clock;

  /** @param caCertificatePem the Varroa CA the gateways sign mite certificates with */
  CommandSealer(String caCertificatePem, Clock clock) {
    this.caCertificatePem = caCertificatePem;
    this.clock = clock;
  }

  /**
   * The command as it may cross the bus to this stream.
   *
   * @param protocolVersion and certificatePem: what the gateway reported of the stream (its route or its request)
   * @throws IllegalArgumentException when the stream speaks protocol 2 but its certificate cannot be trusted: nothing
   *     is sent, the message names the cause and the fix
   */
  Command seal(ControllerIdentity controller, int protocolVersion, String certificatePem, Command command) {
    if (protocolVersion < ProtocolVersion.SEALED_SECRETS) {
      if (SealedCommands.carriesClearSecrets(command)) {
        LOG.warn("event=secrets_sent_unsealed controller={} command={} protocol_version={} fix=\"upgrade the mite "
            + "and its gateway to protocol {}\"", controller.routeKey(), command.getCommandId(), protocolVersion,
            ProtocolVersion.SEALED_SECRETS);
      }
      return command;
    }
    Command sealed = SealedCommands.seal(command, key(controller, certificatePem));
    LOG.debug("event=command_sealed controller={} command={}", controller.routeKey(), command.getCommandId());
    return sealed;
  }

  /** The token as it may cross the bus to this stream; see {@link #seal(ControllerIdentity, int, String, Command)}. */
  JenkinsToken seal(ControllerIdentity controller, int protocolVersion, String certificatePem, JenkinsToken token) {
    if (protocolVersion < ProtocolVersion.SEALED_SECRETS) {
      LOG.warn("event=secrets_sent_unsealed controller={} what=jenkins_token protocol_version={} fix=\"upgrade the "
          + "mite and its gateway to protocol {}\"", controller.routeKey(), protocolVersion,
          ProtocolVersion.SEALED_SECRETS);
      return token;
    }
    return SealedCommands.seal(token, key(controller, certificatePem));
  }

  private ECPublicKey key(ControllerIdentity controller, String certificatePem) {
    if (caCertificatePem == null || caCertificatePem.isBlank()) {
      throw new IllegalArgumentException("the operator holds no Varroa CA certificate to check the mite's certificate "
          + "of " + controller.routeKey() + " with, so it seals nothing and sends nothing; fix: set "
          + ChannelSettings.ENV_CA_CERT_FILE);
    }
    return SealingCertificate.verify(certificatePem, caCertificatePem, controller, clock.instant(),
        "the mite stream of " + controller.routeKey());
  }
}
