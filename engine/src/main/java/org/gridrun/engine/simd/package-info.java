/**
 * Whether this JVM runs gridrun's Vector API kernels ({@code jdk.incubator.vector}), which every kernel checks
 * before it loads its vector class, keeping a scalar path with the same results.
 */
package org.gridrun.engine.simd;
