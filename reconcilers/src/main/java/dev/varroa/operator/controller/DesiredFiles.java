package dev.varroa.operator.controller;

import com.google.protobuf.ByteString;
import dev.varroa.protocol.mite.v1.DesiredState;
import dev.varroa.protocol.mite.v1.File;
import dev.varroa.protocol.mite.v1.JenkinsToken;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The files a mite writes for one desired state: the rendered JCasC and the secret values JCasC reads
 * as files. Its digest tells whether the mite already holds it; it covers secret values only as a
 * hash, and never the Jenkins token, which changes on every push.
 */
record DesiredFiles(SortedMap<String, String> jcasc, SortedMap<String, byte[]> secrets) {

  DesiredFiles(Map<String, String> jcasc, Map<String, byte[]> secrets) {
    this(new TreeMap<>(jcasc), new TreeMap<>(secrets));
  }

  String digest() {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      jcasc.forEach((name, text) -> {
        sha.update(("jcasc/" + name + "\0").getBytes(StandardCharsets.UTF_8));
        sha.update(text.getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
      });
      secrets.forEach((name, value) -> {
        sha.update(("secret/" + name + "\0").getBytes(StandardCharsets.UTF_8));
        sha.update(value);
        sha.update((byte) 0);
      });
      return "sha256:" + HexFormat.of().formatHex(sha.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  DesiredState toDesiredState(JenkinsToken token) {
    DesiredState.Builder state = DesiredState.newBuilder().setBundleDigest(digest()).setJenkinsToken(token);
    jcasc.forEach((name, text) -> state.addJcascFiles(File.newBuilder().setPath(name)
        .setContent(ByteString.copyFrom(text, StandardCharsets.UTF_8))));
    secrets.forEach((name, value) -> state.addSecretFiles(File.newBuilder().setPath(name)
        .setContent(ByteString.copyFrom(value))));
    return state.build();
  }

  @Override
  public String toString() {
    return "DesiredFiles[jcasc=" + jcasc.keySet() + ", secrets=" + secrets.keySet() + "]";
  }
}
