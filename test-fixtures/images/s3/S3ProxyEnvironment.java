package dev.varroa.testimages.s3;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * The entrypoint of the varroa-test/s3 image: starts s3proxy with the image's defaults
 * (/etc/s3proxy/s3proxy.properties) overridden by the environment, since the image has no shell to write a
 * properties file. S3PROXY_IDENTITY becomes s3proxy.identity, JCLOUDS_FILESYSTEM_BASEDIR jclouds.filesystem.basedir
 * (every S3PROXY_ or JCLOUDS_ variable: lower case, '_' for '.'); CREATE_BUCKETS (comma-separated) makes those
 * buckets as folders of the filesystem backend before the server starts.
 */
public final class S3ProxyEnvironment {

  static final Path DEFAULTS = Path.of("/etc/s3proxy/s3proxy.properties");

  private S3ProxyEnvironment() {
  }

  public static void main(String[] args) throws Exception {
    Properties properties = new Properties();
    try (InputStream in = Files.newInputStream(DEFAULTS)) {
      properties.load(in);
    }
    properties.putAll(fromEnvironment(System.getenv()));
    requireCredentials(properties);
    createBuckets(properties, System.getenv().getOrDefault("CREATE_BUCKETS", ""));
    // s3proxy's Main lays system properties over its --properties file.
    properties.forEach((key, value) -> System.setProperty((String) key, (String) value));
    org.gaul.s3proxy.Main.main(new String[] {"--properties", DEFAULTS.toString()});
  }

  static Properties fromEnvironment(Map<String, String> environment) {
    Properties properties = new Properties();
    environment.forEach((name, value) -> {
      if (name.startsWith("S3PROXY_") || name.startsWith("JCLOUDS_")) {
        properties.setProperty(name.toLowerCase(Locale.ROOT).replace('_', '.'), value);
      }
    });
    return properties;
  }

  private static void requireCredentials(Properties properties) {
    if ("none".equals(properties.getProperty("s3proxy.authorization"))) {
      return;
    }
    for (String key : new String[] {"s3proxy.identity", "s3proxy.credential"}) {
      if (properties.getProperty(key, "").isBlank()) {
        String variable = key.toUpperCase(Locale.ROOT).replace('.', '_');
        throw new IllegalStateException("varroa-test/s3: " + key + " is not set: set the environment variable "
            + variable + " (the access key id and secret the clients sign with)");
      }
    }
  }

  private static void createBuckets(Properties properties, String buckets) throws IOException {
    Path basedir = Path.of(properties.getProperty("jclouds.filesystem.basedir", "/data"));
    for (String bucket : buckets.split(",")) {
      String name = bucket.trim();
      if (name.isEmpty()) {
        continue;
      }
      if (!name.matches("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")) {
        throw new IllegalArgumentException("varroa-test/s3: CREATE_BUCKETS names '" + name
            + "', not a bucket name: use 3-63 lowercase letters, digits, '.' or '-'");
      }
      Files.createDirectories(basedir.resolve(name));
    }
  }
}
