package dev.varroa.plugin.jenkins;

import dev.varroa.plugin.auth.VarroaIdentity;
import hudson.Extension;
import hudson.model.Descriptor;
import hudson.security.ACL;
import hudson.security.AuthorizationStrategy;
import java.util.Collection;
import java.util.List;
import org.jenkinsci.Symbol;
import org.kohsuke.stapler.DataBoundConstructor;

/**
 * The operator's fail-closed default ({@code jenkins.authorizationStrategy: varroa: {}}): Overall/Administer, and so
 * every permission, to the Varroa identity (a verified mite bearer token) and to Jenkins' own SYSTEM; nothing to
 * anyone else, anonymous included.
 * Jenkins API: hudson.security.AuthorizationStrategy#getRootACL / #getGroups, hudson.security.ACL#lambda2.
 */
public final class VarroaAuthorizationStrategy extends AuthorizationStrategy {

  @DataBoundConstructor
  public VarroaAuthorizationStrategy() {
  }

  @Override
  public ACL getRootACL() {
    return ACL.lambda2((authentication, permission) ->
        authentication instanceof MiteAuthentication || ACL.SYSTEM2.equals(authentication));
  }

  @Override
  public Collection<String> getGroups() {
    return List.of();
  }

  @Extension
  @Symbol(VarroaIdentity.JCASC_SYMBOL)
  public static final class DescriptorImpl extends Descriptor<AuthorizationStrategy> {
    @Override
    public String getDisplayName() {
      return "Varroa (only the Varroa identity, as administrator)";
    }
  }
}
