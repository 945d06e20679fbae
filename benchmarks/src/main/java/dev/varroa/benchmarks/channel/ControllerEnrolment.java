package dev.varroa.benchmarks.channel;

import dev.varroa.gateway.GatewaySettings;
import dev.varroa.operator.channel.BootstrapTokenIssuer;
import dev.varroa.operator.channel.LiveControllers;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;

/**
 * The operator's part before a mite registers: the Controller recorded live (the gateway opens streams only for
 * those) and a bootstrap token minted for it. The gateways of the benchmarks serve the default cluster name.
 */
public final class ControllerEnrolment {

  private final BootstrapTokenIssuer tokens;
  private final LiveControllers live;

  /** @param operator a connection on which BusTopology.ensure already ran */
  public ControllerEnrolment(Connection operator) throws IOException {
    this.tokens = new BootstrapTokenIssuer(operator.keyValue(BusNames.BOOTSTRAP_TOKENS_BUCKET));
    this.live = new LiveControllers(operator.keyValue(BusNames.LIVE_CONTROLLERS_BUCKET),
        GatewaySettings.DEFAULT_CLUSTER_NAME, Clock.systemUTC());
  }

  /** Records the Controller live and returns a fresh bootstrap token bound to it. */
  public String token(ControllerIdentity controller) throws IOException, JetStreamApiException {
    live.record(controller);
    return tokens.mint(controller, Instant.now()).token();
  }
}
