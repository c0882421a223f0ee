package org.gridrun.analysis;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.util.Collections;
import java.util.Objects;
import org.gridrun.engine.run.StatusFile;
import org.h2.engine.SysProperties;

/**
 * Where H2's servers in this JVM listen: on the loopback interface only, unless a command serves the store to other
 * hosts, or the user chose an address with {@code -Dh2.bindAddress}.
 *
 * <p>H2 reads its bind address once, when its classes load, and uses it for every server socket it opens: the
 * automatic server behind a store opened by two processes, {@code db serve}'s TCP server and the web console. So
 * this class sets it (to {@value #LOOPBACK}) as soon as it loads, which {@link ResultsStore} and the command line do
 * before they touch H2; {@link #allInterfaces()} must come before any store is opened in the JVM.
 */
public final class StoreNetwork {
    static final String BIND_PROPERTY = "h2.bindAddress";
    static final String LOOPBACK = "127.0.0.1";
    private static final boolean USER_CHOSE = System.getProperty(BIND_PROPERTY) != null;

    static {
        if (!USER_CHOSE) {
            System.setProperty(BIND_PROPERTY, LOOPBACK);
        }
    }

    private StoreNetwork() {
    }

    /** Binds H2's servers in this JVM to loopback unless the user chose otherwise: what loading this class does. */
    public static void loopbackByDefault() {
        // the static initializer did it
    }

    /**
     * Lets H2's servers in this JVM listen on every interface (or on the address the user chose): for
     * {@code db serve --allow-others}, before any store is opened.
     *
     * @throws StoreException when H2 was loaded in this JVM already, bound elsewhere
     */
    public static void allInterfaces() {
        if (!USER_CHOSE) {
            System.setProperty(BIND_PROPERTY, "");
        }
        String wanted = System.getProperty(BIND_PROPERTY);
        if (!Objects.equals(blankToEmpty(SysProperties.BIND_ADDRESS), wanted)) {
            throw new StoreException("cannot listen on every interface: H2 was loaded in this JVM bound to "
                    + SysProperties.BIND_ADDRESS + " already; start grid-run db serve --allow-others in a process "
                    + "of its own");
        }
    }

    /**
     * Whether a store opened in this JVM may run H2's automatic server, which lets a second process open it: only
     * when H2 is bound to one chosen address (loopback unless the user chose), never on every interface.
     */
    static boolean autoServer() {
        return !blankToEmpty(SysProperties.BIND_ADDRESS).isEmpty();
    }

    /**
     * The name other hosts reach this one by: the host name when it resolves to an address other than loopback, else
     * the first IPv4 address of an interface that is up and not loopback (a host name that this host maps to
     * 127.0.0.1 says nothing of what others see); the host name when there is no such interface.
     */
    static String hostForOthers() {
        String name = StatusFile.hostName();
        try {
            for (InetAddress address : InetAddress.getAllByName(name)) {
                if (!address.isLoopbackAddress()) {
                    return name;
                }
            }
        } catch (IOException unresolved) {
            // look at the interfaces
        }
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nic.isUp() || nic.isLoopback()) {
                    continue;
                }
                for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                    if (address instanceof Inet4Address && !address.isLoopbackAddress()) {
                        return address.getHostAddress();
                    }
                }
            }
        } catch (IOException e) {
            // no interface list: the host name is all that can be said
        }
        return name;
    }

    private static String blankToEmpty(String s) {
        return s == null ? "" : s.strip();
    }
}
