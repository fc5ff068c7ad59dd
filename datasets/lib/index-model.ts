/**
 * The index-corner CNN: reads the rank and suit printed in a card's corner from a higher
 * resolution crop of just that corner (INDEX_WIDTH x INDEX_HEIGHT of the card's INDEX_REGION).
 * Factorised heads, rank (13 + "no index") and suit (4 + "no index"), so every rank learns from
 * all four suits and every suit from all thirteen ranks. Corners look alike across deck designs,
 * and a corner is all that shows of a card covered in a cascade.
 */
import * as tf from '@tensorflow/tfjs';
import { INDEX_HEIGHT, INDEX_RANK_CLASSES, INDEX_SUIT_CLASSES, INDEX_WIDTH } from '../../server/vision/classes';
import { convBlock, livePool } from './identity-model';

/**
 * Builds the untrained index model. Input [N, 48, 32, 3] in 0..1; outputs [rank, suit]
 * probabilities. `live`: the live-size variant (see livePool; at webcam size the corner is about
 * 9x15 pixels of the frame): every map half as high and wide, so `features` sees 3x2 cells, not 6x4.
 */
export function buildIndexModel(live = false): tf.LayersModel {
  const input = tf.input({ shape: [INDEX_HEIGHT, INDEX_WIDTH, 3], name: 'corner' });
  let x = convBlock(live ? livePool(input) : input, 32, 1, 'c1'); // 48x32: glyph strokes are 2-3 px wide (live: 24x16)
  x = convBlock(x, 48, 2, 'c2'); // 24x16
  x = convBlock(x, 64, 1, 'c3');
  x = convBlock(x, 96, 2, 'c4'); // 12x8
  x = convBlock(x, 128, 2, 'c5'); // 6x4
  // Flatten, not global pooling: where a mark sits in the corner (rank above suit) matters.
  const flat = tf.layers.flatten({ name: 'flat' }).apply(x) as tf.SymbolicTensor;
  let h = tf.layers.dense({ units: 128, name: 'features' }).apply(flat) as tf.SymbolicTensor;
  h = tf.layers.reLU({ name: 'features_relu' }).apply(h) as tf.SymbolicTensor;
  h = tf.layers.dropout({ rate: 0.3, name: 'drop' }).apply(h) as tf.SymbolicTensor;
  const rank = tf.layers.dense({ units: INDEX_RANK_CLASSES, activation: 'softmax', name: 'rank' }).apply(h) as tf.SymbolicTensor;
  const suit = tf.layers.dense({ units: INDEX_SUIT_CLASSES, activation: 'softmax', name: 'suit' }).apply(h) as tf.SymbolicTensor;
  return tf.model({ inputs: input, outputs: [rank, suit], name: live ? 'card_index_live' : 'card_index' });
}
