package org.gridrun.engine.compress;

/**
 * The floats a compressor keeps between steps (a residual, a momentum), and the device that holds newer ones while it
 * keeps them for the compressor ({@link ResidualFeedback}): every read here fetches them first.
 */
public final class ResidualMemory {
    private float[] values = new float[0];
    private ResidualFeedback.DeviceResidual device;

    /** The current values, fetched from the device that kept them; a view, written in place by the owner. */
    float[] current() {
        if (device != null) {
            ResidualFeedback.DeviceResidual from = device;
            device = null;
            from.fetch(values);
        }
        return values;
    }

    /**
     * The current {@code length} values, fetched from the device that kept them; zeros where the last were of another
     * length, as an encode starts them. A view, do not modify.
     */
    public float[] current(int length) {
        if (current().length != length) {
            values = new float[length];
        }
        return values;
    }

    /** Replaces the values (a reset, a restored state): the host's are current. */
    void replace(float[] values) {
        this.values = values;
        device = null;
    }

    /** Records that {@code device} now holds the current values (as many as the last {@link #current(int)}). */
    public void keptBy(ResidualFeedback.DeviceResidual device) {
        this.device = device;
    }

    /** Whether {@code device} holds the current values: nothing on the host has read or replaced them since. */
    public boolean isOn(ResidualFeedback.DeviceResidual device) {
        return this.device == device;
    }
}
