package dev.varroa.protocol;

import dev.varroa.protocol.mite.v1.ControllerRef;
import java.net.URI;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The controller a mite serves. Its URI form is the single URI SAN of the mite's client certificate
 * and the audience of the Jenkins token: {@code spiffe://varroa.dev/ns/<namespace>/controller/<name>/uid/<uid>}.
 */
public record ControllerIdentity(String namespace, String name, String uid) {

  public static final String TRUST_DOMAIN = "varroa.dev";

  private static final Pattern URI_FORM = Pattern.compile(
      "spiffe://" + Pattern.quote(TRUST_DOMAIN) + "/ns/([a-z0-9-]+)/controller/([a-z0-9.-]+)/uid/([A-Za-z0-9-]+)");

  public ControllerIdentity {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(uid, "uid");
    if (namespace.isEmpty() || name.isEmpty() || uid.isEmpty()) {
      throw new IllegalArgumentException("controller identity needs namespace, name and uid, got "
          + namespace + "/" + name + " uid '" + uid + "'");
    }
  }

  /** Parses the URI form; throws IllegalArgumentException naming what is wrong. */
  public static ControllerIdentity parse(String uri) {
    Matcher m = URI_FORM.matcher(uri == null ? "" : uri);
    if (!m.matches()) {
      throw new IllegalArgumentException("not a Varroa controller identity: '" + uri
          + "' (expected spiffe://" + TRUST_DOMAIN + "/ns/<namespace>/controller/<name>/uid/<uid>)");
    }
    return new ControllerIdentity(m.group(1), m.group(2), m.group(3));
  }

  public static ControllerIdentity of(ControllerRef ref) {
    return new ControllerIdentity(ref.getNamespace(), ref.getName(), ref.getUid());
  }

  public ControllerRef toRef() {
    return ControllerRef.newBuilder().setNamespace(namespace).setName(name).setUid(uid).build();
  }

  public URI toUri() {
    return URI.create(toString());
  }

  /** The key of this controller in the varroa_mite_routes bucket and in per-controller subjects. */
  public String routeKey() {
    return namespace + "." + name;
  }

  @Override
  public String toString() {
    return "spiffe://" + TRUST_DOMAIN + "/ns/" + namespace + "/controller/" + name + "/uid/" + uid;
  }
}
