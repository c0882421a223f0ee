package org.gridrun.engine.train;

import org.gridrun.engine.backend.Backend;
import org.gridrun.engine.backend.DevicePowerIteration;
import org.gridrun.engine.backend.Tensor;
import org.gridrun.engine.compress.Compressor;
import org.gridrun.engine.compress.PowerSgd;
import org.gridrun.engine.compress.ResidualFeedback;

/**
 * PowerSGD's step on the backend's device ({@link Backend#powerIteration}), where it has one: the workers' gradients
 * never cross to the host, the average is written into the trainer's device tensor, and Q and the residuals stay on
 * the device between steps. Each worker's {@link PowerSgd} keeps the step count, the shared stream and what was sent
 * (known from the shapes), and fetches Q and its residual from here before the host reads them (a checkpoint); a step
 * uploads them again where the host has newer ones (the first compressed step, a resumed state).
 * {@code -Dgridrun.device_encode=false} keeps the step on the host.
 */
public final class DevicePowerSgd {
    private final DevicePowerIteration device;
    private final PowerSgd[] workers;
    private final int length;
    /** Each worker's handle on the device's Q, one copy for all workers (theirs are equal). */
    private final ResidualFeedback.DeviceResidual[] factors;
    /** Each worker's handle on the device's P, which the alternating variant keeps; one copy for all workers. */
    private final ResidualFeedback.DeviceResidual[] leftFactors;
    /** Each worker's handle on its residual on the device. */
    private final ResidualFeedback.DeviceResidual[] residuals;
    /** The step's gradients, one tensor a worker. */
    private final Tensor[] gradients;

    private DevicePowerSgd(DevicePowerIteration device, PowerSgd[] workers, int length) {
        this.device = device;
        this.workers = workers;
        this.length = length;
        this.factors = new ResidualFeedback.DeviceResidual[workers.length];
        this.leftFactors = new ResidualFeedback.DeviceResidual[workers.length];
        this.residuals = new ResidualFeedback.DeviceResidual[workers.length];
        this.gradients = new Tensor[workers.length];
        for (int w = 0; w < workers.length; w++) {
            int worker = w;
            factors[w] = device::fetchFactors;
            leftFactors[w] = device::fetchLeftFactors;
            residuals[w] = into -> device.fetchResidual(worker, into);
        }
    }

    /**
     * The device step of {@code compressors} (bound to their layout) for gradients of {@code length} values, or null
     * where they are not PowerSGD, the backend has no device step or it is off.
     */
    public static DevicePowerSgd of(Backend backend, Compressor[] compressors, int length) {
        if ("false".equals(System.getProperty("gridrun.device_encode"))
                || !(compressors[0] instanceof PowerSgd lead)) {
            return null;
        }
        PowerSgd[] workers = new PowerSgd[compressors.length];
        for (int w = 0; w < workers.length; w++) {
            workers[w] = (PowerSgd) compressors[w];
        }
        return backend.powerIteration(lead.deviceShapes(length, workers.length))
                .map(device -> new DevicePowerSgd(device, workers, length)).orElse(null);
    }

    /** One step on the gradients of {@code trainers}, the average written into {@code average}. */
    void step(Worker[] trainers, Tensor average) {
        for (int w = 0; w < trainers.length; w++) {
            gradients[w] = trainers[w].gradient();
        }
        step(gradients, average);
    }

    /** One step on the workers' {@code gradients}, the average written into {@code average}. */
    public void step(Tensor[] gradients, Tensor average) {
        boolean compress = workers[0].compressesNext();
        for (int w = 0; compress && w < workers.length; w++) {
            // the workers' factors are equal: each uploads its own where the host has them, over the same values
            float[] q = workers[w].factorsToUpload(length, factors[w]);
            if (q != null) {
                device.uploadFactors(q);
            }
            float[] p = workers[w].leftFactorsToUpload(leftFactors[w]);
            if (p != null) {
                device.uploadLeftFactors(p);
            }
            float[] residual = workers[w].residualToUpload(length, residuals[w]);
            if (residual != null) {
                device.uploadResidual(w, residual);
            }
        }
        device.step(gradients, compress, workers[0].sendsLeft(), average);
        for (int w = 0; w < workers.length; w++) {
            workers[w].afterDeviceStep(length, compress, factors[w], leftFactors[w], residuals[w]);
        }
    }
}
