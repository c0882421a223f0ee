/**
 * Optimizers that update a model's flat parameter tensor from an aggregated gradient, through the backend.
 */
package org.gridrun.engine.optim;
