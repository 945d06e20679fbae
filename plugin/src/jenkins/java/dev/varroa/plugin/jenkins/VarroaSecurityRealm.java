package dev.varroa.plugin.jenkins;

import dev.varroa.plugin.auth.VarroaIdentity;
import hudson.Extension;
import hudson.model.Descriptor;
import hudson.security.SecurityRealm;
import org.jenkinsci.Symbol;
import org.kohsuke.stapler.DataBoundConstructor;
import org.springframework.security.authentication.BadCredentialsException;

/**
 * The realm the operator configures ({@code jenkins.securityRealm: varroa: {}}): no passwords, no sign-up; the only
 * way in is the mite's bearer token, which MiteBearerFilter verifies on every request.
 * Jenkins API: hudson.security.SecurityRealm#createSecurityComponents, a Descriptor with @Symbol for JCasC.
 */
public final class VarroaSecurityRealm extends SecurityRealm {

  @DataBoundConstructor
  public VarroaSecurityRealm() {
  }

  @Override
  public SecurityComponents createSecurityComponents() {
    return new SecurityComponents(authentication -> {
      throw new BadCredentialsException("this Jenkins signs in only the Varroa identity, with the mite's bearer token");
    });
  }

  @Override
  public boolean allowsSignup() {
    return false;
  }

  @Extension
  @Symbol(VarroaIdentity.JCASC_SYMBOL)
  public static final class DescriptorImpl extends Descriptor<SecurityRealm> {
    @Override
    public String getDisplayName() {
      return "Varroa (mite bearer token only)";
    }
  }
}
