package dev.varroa.operator.render;

import java.util.Objects;

/**
 * Where a mite registers and what it trusts, and the key Jenkins verifies the mite's token with.
 * All three are public material; the bootstrap token is not here, the operator mints it apart.
 *
 * @param gatewayEndpoint host:port of the gateway Service (comma-separated when several)
 * @param caCertificatePem the Varroa CA that signed the gateway's server certificate
 * @param jwtPublicKeyPem the public half of the operator's Jenkins token signing key
 */
public record ChannelEndpoint(String gatewayEndpoint, String caCertificatePem, String jwtPublicKeyPem) {
  /** The chart's gateway Service, on the port of seed 000 ("Gateway reachability on TCP 9090"). */
  public static final String DEFAULT_GATEWAY_ENDPOINT = "varroa-gateway.varroa-system.svc:9090";

  public ChannelEndpoint {
    Objects.requireNonNull(gatewayEndpoint, "gatewayEndpoint");
    caCertificatePem = Objects.requireNonNullElse(caCertificatePem, "");
    jwtPublicKeyPem = Objects.requireNonNullElse(jwtPublicKeyPem, "");
  }

  /** What an offline render uses when it is given no CA or key: the default endpoint, empty PEMs. */
  public static ChannelEndpoint unconfigured() {
    return new ChannelEndpoint(DEFAULT_GATEWAY_ENDPOINT, "", "");
  }
}
