package org.gridrun.analysis;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * TLS for a store served with {@code --tls} ({@code jdbc:h2:ssl://}): a key pair of the store's own, and clients that
 * trust exactly its certificate.
 *
 * <p>H2's own TLS default is a key pair compiled into H2, so anyone holds its private key; gridrun instead makes one
 * per store with the JDK's {@code keytool}, in {@code .<name>-tls.p12} beside the store (owner-only, protected by the
 * store's secret). A client reads the certificate from the same file (the shared file system, with the secret) and
 * accepts, on connections to the store's host and port, that certificate and no other, so a host in the middle
 * cannot pose as the server. H2 opens its TLS sockets from the JVM's default {@link SSLContext}, which this class
 * replaces: connections to other endpoints keep the JDK's default trust.
 */
final class StoreTls {
    private static final String ALIAS = "gridrun-store";
    private static final long KEYTOOL_SECONDS = 60;
    private static final Map<InetSocketAddress, X509Certificate> PINNED = new HashMap<>();
    private static KeyManager[] serverKeys;

    private StoreTls() {
    }

    /** The key store of the store whose base path is {@code base}. */
    static Path keystoreFile(Path base) {
        return base.resolveSibling("." + base.getFileName() + "-tls.p12");
    }

    /** Serves with the store's key pair from now on, creating it when the store has none yet. */
    static synchronized void serve(Path base, StoreSecret secret) {
        KeyStore keys = load(ensureKeystore(base, secret), secret);
        try {
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(keys, secret.value().toCharArray());
            serverKeys = factory.getKeyManagers();
        } catch (GeneralSecurityException e) {
            throw new StoreException("cannot use the TLS key of results store " + base + ": " + e.getMessage(), e);
        }
        install(keystoreFile(base));
    }

    /** Trusts, on connections to {@code url}'s host and port, the certificate of its store and no other. */
    static synchronized void trust(StoreUrl url, StoreSecret secret) {
        if (url.base() == null) {
            throw new StoreAccessException("cannot check the server of " + url.url() + ": the URL names no absolute "
                    + "store path, so its certificate (.NAME-tls.p12 beside the store) cannot be found");
        }
        Path file = keystoreFile(url.base());
        X509Certificate certificate;
        try {
            certificate = (X509Certificate) load(file, secret).getCertificate(ALIAS);
        } catch (GeneralSecurityException e) {
            throw new StoreAccessException("cannot read the TLS certificate of " + url.url() + " from " + file + ": "
                    + e.getMessage(), e);
        }
        for (InetSocketAddress endpoint : endpoints(url.hostPort())) {
            PINNED.put(endpoint, certificate);
        }
        install(file);
    }

    private static Path ensureKeystore(Path base, StoreSecret secret) {
        Path file = keystoreFile(base);
        if (Files.exists(file)) {
            return file;
        }
        Path tmp = file.resolveSibling(file.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        ProcessBuilder builder = new ProcessBuilder(keytool, "-genkeypair", "-alias", ALIAS, "-keyalg", "EC",
                "-groupname", "secp256r1", "-sigalg", "SHA256withECDSA", "-dname", "CN=gridrun store",
                "-validity", "3650", "-storetype", "PKCS12", "-keystore", tmp.toString(), "-storepass:env",
                "GRIDRUN_KEYSTORE_SECRET").redirectErrorStream(true);
        builder.environment().put("GRIDRUN_KEYSTORE_SECRET", secret.value());
        try {
            Process keytoolRun = builder.start();
            String output = new String(keytoolRun.getInputStream().readAllBytes());
            if (!keytoolRun.waitFor(KEYTOOL_SECONDS, TimeUnit.SECONDS) || keytoolRun.exitValue() != 0) {
                throw new StoreException("keytool could not make the TLS key of results store " + base + ": "
                        + output.strip());
            }
            OwnerOnly.restrict(tmp);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
            return file;
        } catch (IOException e) {
            throw new StoreException("cannot make the TLS key of results store " + base + " (--tls needs the JDK's "
                    + "keytool, " + keytool + "): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("interrupted while making the TLS key of results store " + base, e);
        } finally {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // a stray temporary file does no harm: it is owner-only and never read
            }
        }
    }

    private static KeyStore load(Path file, StoreSecret secret) {
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(in, secret.value().toCharArray());
            return keys;
        } catch (NoSuchFileException e) {
            throw new StoreAccessException("no TLS key at " + file + ": the store is not served with --tls, or this "
                    + "host cannot see its directory", e);
        } catch (IOException | GeneralSecurityException e) {
            throw new StoreAccessException("cannot read the TLS key store " + file + " with the secret from "
                    + secret.source() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Makes the JVM's default TLS context the one with the store's keys and pinned certificates. H2 would otherwise
     * write its built-in key to {@code ~/.h2.keystore} and point {@code javax.net.ssl.keyStore} at it.
     */
    private static void install(Path keystore) {
        if (System.getProperty("javax.net.ssl.keyStore") == null) {
            System.setProperty("javax.net.ssl.keyStore", keystore.toString());
        }
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(serverKeys, new TrustManager[] {new PinnedTrust(Map.copyOf(PINNED), defaultTrust())}, null);
            SSLContext.setDefault(context);
        } catch (GeneralSecurityException e) {
            throw new StoreException("cannot set up TLS for the results store: " + e.getMessage(), e);
        }
    }

    private static X509TrustManager defaultTrust() throws GeneralSecurityException {
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init((KeyStore) null);
        for (TrustManager manager : factory.getTrustManagers()) {
            if (manager instanceof X509TrustManager x509) {
                return x509;
            }
        }
        throw new GeneralSecurityException("the JDK offers no X.509 trust manager");
    }

    private static List<InetSocketAddress> endpoints(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        String host = colon < 0 ? hostPort : hostPort.substring(0, colon);
        int port = colon < 0 ? 9092 : Integer.parseInt(hostPort.substring(colon + 1));
        try {
            return java.util.Arrays.stream(InetAddress.getAllByName(host))
                    .map(address -> new InetSocketAddress(address, port)).toList();
        } catch (UnknownHostException e) {
            throw new StoreAccessException("cannot resolve the store's host " + host + ": " + e.getMessage(), e);
        }
    }

    /** Trusts exactly the pinned certificate on a pinned endpoint; elsewhere what the JDK trusts. */
    private static final class PinnedTrust extends X509ExtendedTrustManager {
        private final Map<InetSocketAddress, X509Certificate> pinned;
        private final X509TrustManager jdk;

        PinnedTrust(Map<InetSocketAddress, X509Certificate> pinned, X509TrustManager jdk) {
            this.pinned = pinned;
            this.jdk = jdk;
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            check(chain, authType, new InetSocketAddress(socket.getInetAddress(), socket.getPort()));
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            check(chain, authType, engine.getPeerHost() == null ? null
                    : new InetSocketAddress(engine.getPeerHost(), engine.getPeerPort()));
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            check(chain, authType, null);
        }

        private void check(X509Certificate[] chain, String authType, InetSocketAddress endpoint)
                throws CertificateException {
            X509Certificate expected = endpoint == null ? null : pinned.get(endpoint);
            if (expected != null) {
                if (chain.length == 0 || !chain[0].equals(expected)) {
                    throw new CertificateException("the server at " + endpoint + " does not hold the results "
                            + "store's certificate: another process may be posing as it");
                }
                return;
            }
            jdk.checkServerTrusted(chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            jdk.checkClientTrusted(chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            jdk.checkClientTrusted(chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            jdk.checkClientTrusted(chain, authType);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return jdk.getAcceptedIssuers();
        }
    }
}
