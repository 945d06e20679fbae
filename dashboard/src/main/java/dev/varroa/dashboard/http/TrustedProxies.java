package dev.varroa.dashboard.http;

import jakarta.servlet.http.HttpServletRequest;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which peers may tell the BFF who their client is (VARROA_BFF_TRUSTED_PROXIES: an ingress controller, a load
 * balancer). A request from one of them is from the right-most X-Forwarded-For address that is not itself a trusted
 * proxy; any other request is from its TCP peer, whatever headers it sends.
 */
public final class TrustedProxies {

  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

  /** One address block: the network's bytes and how many leading bits must match. */
  private record Block(byte[] network, int bits) {
    boolean contains(byte[] address) {
      if (address.length != network.length) {
        return false;
      }
      for (int bit = 0; bit < bits; bit++) {
        int mask = 0x80 >>> (bit % 8);
        if ((address[bit / 8] & mask) != (network[bit / 8] & mask)) {
          return false;
        }
      }
      return true;
    }
  }

  private final List<Block> blocks;

  private TrustedProxies(List<Block> blocks) {
    this.blocks = List.copyOf(blocks);
  }

  public static TrustedProxies none() {
    return new TrustedProxies(List.of());
  }

  /**
   * @param variable the setting's name, for the error
   * @param value comma-separated addresses or CIDR blocks ({@code 10.0.0.0/8}, {@code fd00::/8}); blank for none
   */
  public static TrustedProxies parse(String variable, String value) {
    List<Block> blocks = new ArrayList<>();
    if (value != null) {
      for (String entry : value.split(",")) {
        String text = entry.trim();
        if (!text.isEmpty()) {
          blocks.add(block(variable, text));
        }
      }
    }
    return new TrustedProxies(blocks);
  }

  /** The client's address as the BFF decides it: see the class comment. */
  public String source(HttpServletRequest request) {
    String peer = request.getRemoteAddr();
    if (!trusted(peer)) {
      return peer;
    }
    List<String> forwarded = new ArrayList<>();
    for (java.util.Enumeration<String> headers = request.getHeaders("X-Forwarded-For"); headers.hasMoreElements(); ) {
      Arrays.stream(headers.nextElement().split(",")).map(String::trim).filter(s -> !s.isEmpty())
          .forEach(forwarded::add);
    }
    for (int i = forwarded.size() - 1; i >= 0; i--) {
      if (!trusted(forwarded.get(i))) {
        return forwarded.get(i);
      }
    }
    return forwarded.isEmpty() ? peer : forwarded.get(0);
  }

  private boolean trusted(String address) {
    Optional<byte[]> bytes = literal(address);
    return bytes.isPresent() && blocks.stream().anyMatch(b -> b.contains(bytes.get()));
  }

  private static Block block(String variable, String text) {
    int slash = text.indexOf('/');
    String address = slash < 0 ? text : text.substring(0, slash);
    byte[] network = literal(address).orElseThrow(() -> new IllegalArgumentException(variable + ": '" + text
        + "' is not an IP address or CIDR block; fix: list addresses or blocks such as 10.0.0.0/8, fd00::/8, "
        + "separated by commas"));
    int bits = network.length * 8;
    if (slash >= 0) {
      try {
        bits = Integer.parseInt(text.substring(slash + 1));
      } catch (NumberFormatException e) {
        bits = -1;
      }
      if (bits < 0 || bits > network.length * 8) {
        throw new IllegalArgumentException(variable + ": '" + text + "' has a prefix length outside 0-"
            + network.length * 8 + "; fix: give a block such as 10.0.0.0/8");
      }
    }
    return new Block(network, bits);
  }

  /** The address's bytes when it is an IP literal; never a DNS lookup. */
  static Optional<byte[]> literal(String text) {
    String candidate = text.startsWith("[") && text.endsWith("]") ? text.substring(1, text.length() - 1) : text;
    if (!IPV4.matcher(candidate).matches() && !(candidate.contains(":") && candidate.matches("[0-9A-Fa-f:.]+"))) {
      return Optional.empty();
    }
    try {
      return Optional.of(InetAddress.getByName(candidate).getAddress());
    } catch (UnknownHostException e) {
      return Optional.empty();
    }
  }
}
