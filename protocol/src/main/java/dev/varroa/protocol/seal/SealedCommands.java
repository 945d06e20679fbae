package dev.varroa.protocol.seal;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.DesiredState;
import dev.varroa.protocol.mite.v1.DesiredStateSecrets;
import dev.varroa.protocol.mite.v1.JenkinsToken;
import dev.varroa.protocol.mite.v1.ReplayDelivery;
import java.nio.charset.StandardCharsets;
import java.security.interfaces.ECPublicKey;
import java.util.List;

/**
 * Which parts of a command are secret, and how they are sealed and opened (protocol 2): a desired state's secret
 * files and Jenkins token, a replayed webhook delivery whole (its headers and path may carry the sender's shared
 * secret), a Jenkins token's JWT. Everything else (JCasC, digests, deadlines, one-shot actions) stays readable, so the
 * gateway can route and time commands it cannot read.
 */
public final class SealedCommands {

  private SealedCommands() {
  }

  /** The command with its secret parts sealed to {@code recipient}; a command without secrets is returned as is. */
  public static Command seal(Command command, ECPublicKey recipient) {
    return switch (command.getKindCase()) {
      case DESIRED_STATE -> command.toBuilder().setDesiredState(seal(command.getDesiredState(), recipient,
          command.getCommandId())).build();
      case REPLAY_DELIVERY -> command.toBuilder().setReplayDelivery(ReplayDelivery.newBuilder()
          .setSealed(SecretSeal.seal(command.getReplayDelivery().toByteArray(), recipient,
              SecretSeal.replayDelivery(command.getCommandId())))).build();
      case ONE_SHOT, RUN_JOB, KIND_NOT_SET -> command;
    };
  }

  private static DesiredState seal(DesiredState state, ECPublicKey recipient, String commandId) {
    DesiredStateSecrets.Builder secrets = DesiredStateSecrets.newBuilder().addAllSecretFiles(state.getSecretFilesList());
    if (state.hasJenkinsToken()) {
      secrets.setJenkinsToken(state.getJenkinsToken());
    }
    return state.toBuilder().clearSecretFiles().clearJenkinsToken()
        .setSealedSecrets(SecretSeal.seal(secrets.build().toByteArray(), recipient, SecretSeal.desiredState(commandId)))
        .build();
  }

  /** The token with its JWT sealed to {@code recipient}; its expiry stays readable. */
  public static JenkinsToken seal(JenkinsToken token, ECPublicKey recipient) {
    return JenkinsToken.newBuilder().setExpiresAtEpochMillis(token.getExpiresAtEpochMillis())
        .setSealedJwt(SecretSeal.seal(token.getJwt().getBytes(StandardCharsets.UTF_8), recipient,
            SecretSeal.JENKINS_TOKEN)).build();
  }

  /** True when the command carries a secret in the clear (sent so to a protocol 1 mite only). */
  public static boolean carriesClearSecrets(Command command) {
    return switch (command.getKindCase()) {
      case DESIRED_STATE -> command.getDesiredState().getSecretFilesCount() > 0
          || !command.getDesiredState().getJenkinsToken().getJwt().isEmpty();
      case REPLAY_DELIVERY -> !command.getReplayDelivery().hasSealed();
      case ONE_SHOT, RUN_JOB, KIND_NOT_SET -> false;
    };
  }

  /** True when the command holds a seal. */
  public static boolean isSealed(Command command) {
    return command.getDesiredState().hasSealedSecrets() || command.getReplayDelivery().hasSealed();
  }

  /** The command as its sender wrote it, its seals opened; a command without seals is returned as is. */
  public static Command open(Command command, List<OpeningKey> keys) throws SealRefusedException {
    String id = command.getCommandId();
    switch (command.getKindCase()) {
      case DESIRED_STATE -> {
        DesiredState state = command.getDesiredState();
        if (!state.hasSealedSecrets()) {
          return command;
        }
        String where = "command " + id + "'s desired state";
        DesiredStateSecrets secrets;
        try {
          secrets = DesiredStateSecrets.parseFrom(SecretSeal.open(state.getSealedSecrets(), keys,
              SecretSeal.desiredState(id), where));
        } catch (InvalidProtocolBufferException e) {
          throw new SealRefusedException(SealRefusedException.Reason.DAMAGED, where + " opened to something that is "
              + "not DesiredStateSecrets: " + e.getMessage(), e);
        }
        DesiredState.Builder opened = state.toBuilder().clearSealedSecrets().clearSecretFiles()
            .addAllSecretFiles(secrets.getSecretFilesList());
        if (secrets.hasJenkinsToken()) {
          opened.setJenkinsToken(secrets.getJenkinsToken());
        }
        return command.toBuilder().setDesiredState(opened).build();
      }
      case REPLAY_DELIVERY -> {
        if (!command.getReplayDelivery().hasSealed()) {
          return command;
        }
        String where = "command " + id + "'s replayed delivery";
        try {
          return command.toBuilder().setReplayDelivery(ReplayDelivery.parseFrom(SecretSeal.open(
              command.getReplayDelivery().getSealed(), keys, SecretSeal.replayDelivery(id), where))).build();
        } catch (InvalidProtocolBufferException e) {
          throw new SealRefusedException(SealRefusedException.Reason.DAMAGED, where + " opened to something that is "
              + "not a ReplayDelivery: " + e.getMessage(), e);
        }
      }
      default -> {
        return command;
      }
    }
  }

  /** The token with its JWT opened; a token sent in the clear is returned as is. */
  public static JenkinsToken open(JenkinsToken token, List<OpeningKey> keys) throws SealRefusedException {
    if (!token.hasSealedJwt()) {
      return token;
    }
    byte[] jwt = SecretSeal.open(token.getSealedJwt(), keys, SecretSeal.JENKINS_TOKEN, "the Jenkins token");
    return JenkinsToken.newBuilder().setJwt(new String(jwt, StandardCharsets.UTF_8))
        .setExpiresAtEpochMillis(token.getExpiresAtEpochMillis()).build();
  }
}
