package dev.varroa.operator.render;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The public half of the control channel for one Controller: the CA the mite trusts the gateway by,
 * and the key Jenkins verifies the mite's token with. Neither is a secret; the bootstrap token lives
 * in a Secret the operator mints apart.
 */
public final class ChannelConfigMapRenderer {
  public static final String CA_KEY = "ca.crt";
  public static final String JWT_PUBLIC_KEY = "jwt-public.pem";

  private ChannelConfigMapRenderer() {}

  public static ConfigMap render(RenderInput input) {
    Map<String, String> data = new LinkedHashMap<>();
    data.put(CA_KEY, input.channel().caCertificatePem());
    data.put(JWT_PUBLIC_KEY, input.channel().jwtPublicKeyPem());
    return new ConfigMapBuilder()
        .withMetadata(OwnedMetadata.of(input.names().channelConfigMap(), input.controller().namespace(),
            input.controller()))
        .withData(data)
        .build();
  }
}
