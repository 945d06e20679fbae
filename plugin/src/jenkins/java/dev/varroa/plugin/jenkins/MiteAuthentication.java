package dev.varroa.plugin.jenkins;

import dev.varroa.plugin.auth.VarroaIdentity;
import hudson.security.SecurityRealm;
import java.util.List;
import org.springframework.security.authentication.AbstractAuthenticationToken;

/**
 * The Varroa identity: who a request with a verified mite bearer token runs as. Only MiteBearerFilter makes one, so
 * VarroaAuthorizationStrategy can recognise it by type.
 * Jenkins API: org.springframework.security.core.Authentication (Jenkins 2.266+ security model).
 */
final class MiteAuthentication extends AbstractAuthenticationToken {

  private static final long serialVersionUID = 1L;

  MiteAuthentication() {
    super(List.of(SecurityRealm.AUTHENTICATED_AUTHORITY2));
    setAuthenticated(true);
  }

  @Override
  public Object getCredentials() {
    return "";
  }

  @Override
  public Object getPrincipal() {
    return VarroaIdentity.USER_ID;
  }
}
