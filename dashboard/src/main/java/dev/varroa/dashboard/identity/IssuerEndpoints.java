package dev.varroa.dashboard.identity;

import com.nimbusds.oauth2.sdk.GeneralException;
import com.nimbusds.oauth2.sdk.id.Issuer;
import com.nimbusds.openid.connect.sdk.op.OIDCProviderMetadata;
import java.io.IOException;
import java.net.URI;

/** The provider's endpoints, from its discovery document (/.well-known/openid-configuration). */
public record IssuerEndpoints(String issuer, URI authorization, URI token, URI jwks, URI endSession) {

  public static IssuerEndpoints discover(URI issuer) throws IOException {
    try {
      OIDCProviderMetadata metadata = OIDCProviderMetadata.resolve(new Issuer(issuer.toString()));
      return new IssuerEndpoints(metadata.getIssuer().getValue(), metadata.getAuthorizationEndpointURI(),
          metadata.getTokenEndpointURI(), metadata.getJWKSetURI(), metadata.getEndSessionEndpointURI());
    } catch (GeneralException e) {
      throw new IOException("the OpenID provider " + issuer + " has no usable discovery document: "
          + e.getMessage() + " (VARROA_OIDC_ISSUER)", e);
    }
  }
}
