package dev.varroa.testfixtures.seaweed;

import java.security.SecureRandom;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One identity of SeaweedFS's S3 gateway: a name, one access key pair and the actions it may take. An action is
 * {@code Admin}, {@code Read}, {@code Write} or {@code List}, alone (any bucket) or as {@code Read:<bucket>/<pattern>}
 * where the pattern may end in {@code *}: SeaweedFS then allows it only on keys the pattern matches (for a listing,
 * on the requested {@code prefix}).
 */
public record SeaweedS3Identity(String name, String accessKeyId, String secretAccessKey, List<String> actions) {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");
  private static final String KEY_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  private static final String SECRET_ALPHABET = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";

  public SeaweedS3Identity {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("identity name '" + name + "' must be 1-64 letters, digits, '-' or '_'");
    }
    if (actions == null || actions.isEmpty()) {
      throw new IllegalArgumentException("identity " + name + " has no actions: an identity without any is refused "
          + "everything; give Admin, or Read/Write/List limited to a bucket and prefix");
    }
    actions = List.copyOf(actions);
  }

  /** Everything on every bucket, including creating buckets. */
  public static SeaweedS3Identity admin(String name) {
    return new SeaweedS3Identity(name, randomKey(), randomSecret(), List.of("Admin", "Read", "Write", "List"));
  }

  /** Read, write and list, only on keys of {@code bucket} that start with {@code prefix}. */
  public static SeaweedS3Identity limitedToPrefix(String name, String bucket, String prefix) {
    if (prefix == null || prefix.isEmpty() || !prefix.endsWith("/") || prefix.contains("*") || prefix.contains("?")) {
      throw new IllegalArgumentException("identity " + name + ": prefix '" + prefix + "' must be a folder ending in "
          + "'/' without wildcards, or the identity would reach beyond it");
    }
    String resource = bucket + "/" + prefix + "*";
    return new SeaweedS3Identity(name, randomKey(), randomSecret(),
        List.of("Read:" + resource, "Write:" + resource, "List:" + resource));
  }

  // The s3.config JSON entry; names, keys and actions are plain ASCII without quotes, so nothing needs escaping.
  String toJson() {
    StringBuilder json = new StringBuilder("{\"name\":\"").append(name).append("\",\"credentials\":[{\"accessKey\":\"")
        .append(accessKeyId).append("\",\"secretKey\":\"").append(secretAccessKey).append("\"}],\"actions\":[");
    for (int i = 0; i < actions.size(); i++) {
      String action = actions.get(i);
      if (action.contains("\"") || action.contains("\\")) {
        throw new IllegalArgumentException("identity " + name + ": action '" + action + "' has a quote or backslash");
      }
      json.append(i == 0 ? "" : ",").append('"').append(action).append('"');
    }
    return json.append("]}").toString();
  }

  @Override
  public String toString() {
    return "SeaweedS3Identity[" + name + ", access key " + accessKeyId + ", " + actions + "]";
  }

  private static String randomKey() {
    return "VARROA" + random(KEY_ALPHABET, 14);
  }

  private static String randomSecret() {
    return random(SECRET_ALPHABET, 40);
  }

  private static String random(String alphabet, int length) {
    SecureRandom random = new SecureRandom();
    StringBuilder text = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      text.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return text.toString();
  }
}
