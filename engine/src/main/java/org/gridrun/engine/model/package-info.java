/**
 * Models trained by the simulated workers: the {@link org.gridrun.engine.model.Model} interface (shared flat
 * parameters, per-worker workspaces) and the multilayer perceptron {@link org.gridrun.engine.model.Mlp}. Models
 * compute only through a {@link org.gridrun.engine.backend.Backend}; they never touch Java arrays.
 */
package org.gridrun.engine.model;
