package dev.varroa.testfixtures.jenkins;

import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

import javax.crypto.KeyGenerator;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The agents a Jenkins knows and their secrets, as jenkins.slaves.JnlpAgentReceiver#DATABASE answers them: an agent
 * exists when {@code nodes/<name>/config.xml} was loaded at start (Nodes#load) or added since, and its secret is
 * JnlpAgentReceiver.SLAVE_SECRET#mac(name): HMAC-SHA256 of the name under the key
 * {@code secrets/jenkins.slaves.JnlpSlaveAgentProtocol.secret}, as lower-case hex (HMACConfidentialKey#mac). Real
 * Jenkins keeps that key encrypted with {@code secrets/master.key} (DefaultConfidentialStore); the fixture keeps it
 * raw. Without a home folder, agents and key live in memory and die with the fixture.
 */
final class AgentDatabase {

    static final String NODES = "nodes";
    static final String CONFIG_XML = "config.xml";
    static final Path SECRET_KEY_FILE = Path.of("secrets", "jenkins.slaves.JnlpSlaveAgentProtocol.secret");
    // Jenkins#checkGoodName's unsafe characters.
    private static final String UNSAFE_NAME_CHARACTERS = "?*/\\%!@#$^&|<>[]:;";
    private static final String HMAC = "HmacSHA256";

    private final Path home;
    private final byte[] key;
    private final TreeSet<String> names = new TreeSet<>();

    private AgentDatabase(Path home, byte[] key, List<String> names) {
        this.home = home;
        this.key = key;
        this.names.addAll(names);
    }

    /** Loads the agents and the key from {@code home}, writing a new key when it has none (a first start); null home keeps all in memory. */
    static AgentDatabase open(Path home) {
        if (home == null) {
            return new AgentDatabase(null, newKey(), List.of());
        }
        try {
            Path keyFile = home.resolve(SECRET_KEY_FILE);
            byte[] key;
            if (Files.exists(keyFile)) {
                key = Files.readAllBytes(keyFile);
            } else {
                key = newKey();
                Files.createDirectories(keyFile.getParent());
                Files.write(keyFile, key);
            }
            return new AgentDatabase(home, key, loadNodes(home.resolve(NODES)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the agents of JENKINS_HOME " + home, e);
        }
    }

    synchronized boolean exists(String name) {
        return names.contains(name);
    }

    synchronized List<String> names() {
        return List.copyOf(names);
    }

    /** JnlpAgentReceiver.SLAVE_SECRET#mac(name). */
    String secretOf(String name) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(key, HMAC));
            return HexFormat.of().formatHex(mac.doFinal(name.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(HMAC + " is required of every Java runtime", e);
        }
    }

    /** Adds the agent as Jenkins#addNode persists it (an inbound DumbSlave) and returns its secret. */
    synchronized String add(String name) {
        checkGoodName(name);
        if (home != null) {
            Path config = home.resolve(NODES).resolve(name).resolve(CONFIG_XML);
            try {
                Files.createDirectories(config.getParent());
                Files.writeString(config, inboundAgentXml(name), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + config, e);
            }
        }
        names.add(name);
        return secretOf(name);
    }

    /** Removes the agent as Nodes#removeNode does: its folder under {@code nodes/} goes too. */
    synchronized boolean remove(String name) {
        if (!names.remove(name)) {
            return false;
        }
        if (home != null) {
            Path folder = home.resolve(NODES).resolve(name);
            try (Stream<Path> files = Files.walk(folder)) {
                for (Path file : files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                    Files.delete(file);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot delete " + folder, e);
            }
        }
        return true;
    }

    // Nodes#load: every nodes/*/config.xml; the node's name is the <name> of the XML, whatever its root element
    // (hudson.slaves.DumbSlave writes <slave>, the Kubernetes plugin its own class name).
    private static List<String> loadNodes(Path nodes) throws IOException {
        if (!Files.isDirectory(nodes)) {
            return List.of();
        }
        List<String> found = new ArrayList<>();
        try (Stream<Path> folders = Files.list(nodes)) {
            for (Path config : folders.map(folder -> folder.resolve(CONFIG_XML)).filter(Files::isRegularFile).sorted().toList()) {
                found.add(nodeName(config));
            }
        }
        return found;
    }

    private static String nodeName(Path config) throws IOException {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            Element root = factory.newDocumentBuilder().parse(config.toFile()).getDocumentElement();
            for (Node child = root.getFirstChild(); child != null; child = child.getNextSibling()) {
                if (child instanceof Element element && element.getTagName().equals("name")) {
                    return element.getTextContent().strip();
                }
            }
            throw new IOException(config + " has no <name> element under <" + root.getTagName() + ">: Jenkins "
                    + "cannot load it as a node; write the agent with JenkinsFixture#addAgent or give it a <name>");
        } catch (ParserConfigurationException | SAXException e) {
            throw new IOException(config + " is not a node's XML: " + e.getMessage(), e);
        }
    }

    private static void checkGoodName(String name) {
        if (name == null || name.isBlank() || name.equals(".") || name.equals("..")) {
            throw new IllegalArgumentException("agent name \"" + name + "\" is not a name Jenkins accepts "
                    + "(Jenkins#checkGoodName): use letters, digits, '-', '_' or '.'");
        }
        for (char c : name.toCharArray()) {
            if (UNSAFE_NAME_CHARACTERS.indexOf(c) >= 0 || Character.isISOControl(c)) {
                throw new IllegalArgumentException("agent name \"" + name + "\" has '" + c + "', an unsafe character "
                        + "for Jenkins (Jenkins#checkGoodName): use letters, digits, '-', '_' or '.'");
            }
        }
    }

    // What Jenkins writes for an inbound agent using WebSocket (DumbSlave with JNLPLauncher).
    private static String inboundAgentXml(String name) {
        return "<?xml version='1.1' encoding='UTF-8'?>\n"
                + "<slave>\n"
                + "  <name>" + HttpReply.escape(name) + "</name>\n"
                + "  <description></description>\n"
                + "  <remoteFS>/home/jenkins/agent</remoteFS>\n"
                + "  <numExecutors>1</numExecutors>\n"
                + "  <mode>NORMAL</mode>\n"
                + "  <retentionStrategy class=\"hudson.slaves.RetentionStrategy$Always\"/>\n"
                + "  <launcher class=\"hudson.slaves.JNLPLauncher\">\n"
                + "    <workDirSettings>\n"
                + "      <disabled>false</disabled>\n"
                + "      <internalDir>remoting</internalDir>\n"
                + "      <failIfWorkDirIsMissing>false</failIfWorkDirIsMissing>\n"
                + "    </workDirSettings>\n"
                + "    <webSocket>true</webSocket>\n"
                + "  </launcher>\n"
                + "  <label></label>\n"
                + "  <nodeProperties/>\n"
                + "</slave>\n";
    }

    private static byte[] newKey() {
        try {
            // HMACConfidentialKey#getKey: a KeyGenerator for HmacSHA256 with its default size
            return KeyGenerator.getInstance(HMAC).generateKey().getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(HMAC + " is required of every Java runtime", e);
        }
    }

    Optional<Path> home() {
        return Optional.ofNullable(home);
    }
}
