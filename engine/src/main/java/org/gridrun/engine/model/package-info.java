/**
 * Models trained by the simulated workers: the {@link org.gridrun.engine.model.Model} interface (shared flat
 * parameters, per-worker workspaces); the models themselves, the multilayer perceptron among them, are networks of
 * {@code nn} layers. Models compute only through a {@link org.gridrun.engine.backend.Backend}; they never touch Java
 * arrays.
 */
package org.gridrun.engine.model;
