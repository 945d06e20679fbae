package dev.varroa.cli.bff;

import java.net.URI;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code --server} for every command that reads through the BFF, and the stored login it uses. */
public final class ServerOptions {

  @Option(names = "--server", paramLabel = "URL",
      description = "The Varroa BFF (dashboard) URL; default: the server of the last varroactl login.")
  URI server;

  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  /** A client for the server with the stored token; no login, or an expired token, is an error (exit 1). */
  public BffClient client() {
    CommandEnvironment root = (CommandEnvironment) spec.root().userObject();
    ConfigFolder config = root.configFolder();
    Optional<StoredLogin> login = config.read();
    URI target = server != null ? server : login.map(StoredLogin::server).orElseThrow(() -> BffFailure.local(
        "not logged in: run varroactl login --server URL (no " + config.file() + ")"));
    StoredLogin stored = login.orElseThrow(() -> BffFailure.local("not logged in to " + target
        + ": run varroactl login --server " + target));
    if (!root.clock().instant().isBefore(stored.expiry())) {
      throw BffFailure.local("token expired: run varroactl login (the token from " + stored.issuer()
          + " expired at " + stored.expiry() + ")");
    }
    return new BffClient(target, Optional.of(stored.idToken()));
  }
}
